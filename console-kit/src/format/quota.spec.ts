import { describe, expect, it } from 'vitest';
import {
  currencyToQuota,
  formatCallCost,
  formatCurrency,
  formatQuota,
  formatQuotaWithUnits,
  formatShortNumber,
  quotaDisplayFromStatus,
  quotaToCurrency,
} from './quota';

const units = { displayInCurrency: false, quotaPerUnit: 500_000 };
const dollars = { displayInCurrency: true, quotaPerUnit: 500_000 };

describe('formatShortNumber', () => {
  it('writes numbers below 10,000 in full', () => {
    expect(formatShortNumber(0)).toBe('0');
    expect(formatShortNumber(999)).toBe('999');
    expect(formatShortNumber(9999)).toBe('9999');
  });

  it('shortens with k, M and B and one decimal', () => {
    expect(formatShortNumber(10_000)).toBe('10k');
    expect(formatShortNumber(12_345)).toBe('12.3k');
    expect(formatShortNumber(500_000)).toBe('500k');
    expect(formatShortNumber(1_500_000)).toBe('1.5M');
    expect(formatShortNumber(2_000_000_000)).toBe('2B');
    expect(formatShortNumber(1_234_567_890_123)).toBe('1234.6B');
  });

  it('moves to the next unit instead of showing 1000k', () => {
    expect(formatShortNumber(999_960)).toBe('1M');
    expect(formatShortNumber(999_999_999)).toBe('1B');
  });

  it('keeps the sign of negative numbers', () => {
    expect(formatShortNumber(-12_345)).toBe('-12.3k');
    expect(formatShortNumber(-5)).toBe('-5');
  });

  it('never throws on odd numbers', () => {
    expect(formatShortNumber(Number.NaN)).toBe('NaN');
    expect(formatShortNumber(12.345)).toBe('12.35');
  });
});

describe('formatQuota', () => {
  it('shows dollars with two decimals in currency mode', () => {
    expect(formatQuota(500_000, dollars)).toBe('$1.00');
    expect(formatQuota(1_234_567, dollars)).toBe('$2.47');
    expect(formatQuota(0, dollars)).toBe('$0.00');
    expect(formatQuota(-250_000, dollars)).toBe('-$0.50');
    expect(formatQuota(-1, dollars)).toBe('$0.00');
  });

  it('follows a changed QuotaPerUnit', () => {
    expect(formatQuota(1_000, { displayInCurrency: true, quotaPerUnit: 1_000 })).toBe('$1.00');
  });

  it('shows shortened units otherwise', () => {
    expect(formatQuota(123_456_789, units)).toBe('123.5M');
    expect(formatQuota(5_000, units)).toBe('5000');
  });

  it('adds the raw units next to dollars where both are wanted', () => {
    expect(formatQuotaWithUnits(500_000, dollars)).toBe('$1.00 (500000)');
    expect(formatQuotaWithUnits(500_000, units)).toBe('500k');
  });
});

describe('conversions', () => {
  it('converts between quota and dollars', () => {
    expect(quotaToCurrency(1_000_000, 500_000)).toBe(2);
    expect(currencyToQuota(2.5, 500_000)).toBe(1_250_000);
    expect(currencyToQuota(0.0000011, 500_000)).toBe(1);
  });

  it('falls back to 500000 per dollar for a missing or broken QuotaPerUnit', () => {
    expect(quotaToCurrency(500_000, 0)).toBe(1);
    expect(currencyToQuota(1, Number.NaN)).toBe(500_000);
  });

  it('formats bare currency amounts', () => {
    expect(formatCurrency(1.005)).toBe('$1.00');
    expect(formatCurrency(12)).toBe('$12.00');
  });
});

describe('quotaDisplayFromStatus', () => {
  it('reads the status fields and defaults what is missing', () => {
    expect(quotaDisplayFromStatus({ display_in_currency: false, quota_per_unit: 1000 })).toEqual({
      displayInCurrency: false,
      quotaPerUnit: 1000,
    });
    expect(quotaDisplayFromStatus(null)).toEqual({ displayInCurrency: true, quotaPerUnit: 500_000 });
    expect(quotaDisplayFromStatus({ display_in_currency: 'false', quota_per_unit: '-3' })).toEqual({
      displayInCurrency: false,
      quotaPerUnit: 500_000,
    });
  });
});

describe('formatCallCost', () => {
  it('shows a cheap call in dollars with 6 decimals instead of "$0.00"', () => {
    expect(formatCallCost(75)).toBe('$0.000150');
    expect(formatCallCost(500_000)).toBe('$1.000000');
    expect(formatCallCost(0)).toBe('$0.000000');
    expect(formatCallCost(-75)).toBe('-$0.000150');
  });

  it('shows raw units when currency display is off', () => {
    expect(formatCallCost(75, { displayInCurrency: false, quotaPerUnit: 500_000 })).toBe('75');
  });
});
