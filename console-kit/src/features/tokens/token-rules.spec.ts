import { describe, expect, it } from 'vitest';
import {
  buildTokenPayload,
  defaultGroupOf,
  emptyTokenForm,
  expiryFromPreset,
  formatExpiry,
  groupChoices,
  parseExpiry,
  QUOTA_PRESETS,
  tokenFormOf,
  tokenStatusName,
  NEVER_EXPIRES,
} from './token-rules';
import type { Token } from '../../lib/tokens-api';

const NOW = new Date(2025, 0, 31, 10, 20, 30);

describe('expiry presets', () => {
  it('gives never as empty and the others relative to now in the drawer format', () => {
    expect(expiryFromPreset('never', NOW)).toBe('');
    // One month from 31 January is the end of February (dayjs clamps the day).
    expect(expiryFromPreset('month', NOW)).toBe('2025-02-28 10:20:30');
    expect(expiryFromPreset('day', NOW)).toBe('2025-02-01 10:20:30');
    expect(expiryFromPreset('hour', NOW)).toBe('2025-01-31 11:20:30');
    expect(expiryFromPreset('minute', NOW)).toBe('2025-01-31 10:21:30');
  });

  it('parses the format, -1 and empty; refuses anything else with the format error', () => {
    expect(parseExpiry('')).toEqual({ ok: true, value: NEVER_EXPIRES });
    expect(parseExpiry('-1')).toEqual({ ok: true, value: NEVER_EXPIRES });
    const parsed = parseExpiry('2025-02-28 10:20:30');
    expect(parsed).toEqual({
      ok: true,
      value: Math.floor(new Date(2025, 1, 28, 10, 20, 30).getTime() / 1000),
    });
    for (const bad of [
      '2025-02-30 10:00:00',
      '2025-2-3 10:00:00',
      '2025-02-28',
      'tomorrow',
      'invalid',
      '2025-02-28 25:00:00',
    ]) {
      expect(parseExpiry(bad)).toEqual({ ok: false });
    }
  });

  it('round-trips a stored expiry through the drawer text', () => {
    const seconds = Math.floor(new Date(2030, 5, 1, 8, 0, 0).getTime() / 1000);
    expect(formatExpiry(seconds)).toBe('2030-06-01 08:00:00');
    expect(parseExpiry(formatExpiry(seconds))).toEqual({ ok: true, value: seconds });
    expect(formatExpiry(NEVER_EXPIRES)).toBe('');
  });
});

describe('quota presets', () => {
  it('are the spec raw units: $1, $10, $50, $100, $500, $1000 at 500000 a dollar', () => {
    expect(QUOTA_PRESETS.map((quota) => quota / 500_000)).toEqual([1, 10, 50, 100, 500, 1000]);
    expect(emptyTokenForm().remainQuota).toBe('500000');
  });
});

describe('token payload', () => {
  it('builds the create payload, allow list one per line, model limits as a comma list', () => {
    const built = buildTokenPayload(
      {
        ...emptyTokenForm('auto'),
        name: '  team  ',
        count: '3',
        expiry: '2031-01-01 00:00:00',
        modelLimitsEnabled: true,
        modelLimits: ['gpt-4o', 'gpt-4o-mini'],
        allowIps: '10.0.0.1, 10.0.0.2\n\n192.168.0.0/16 ',
      },
      true,
    );
    expect(built).toEqual({
      ok: true,
      count: 3,
      fields: {
        name: 'team',
        remain_quota: 500000,
        expired_time: Math.floor(new Date(2031, 0, 1).getTime() / 1000),
        unlimited_quota: false,
        model_limits_enabled: true,
        model_limits: 'gpt-4o,gpt-4o-mini',
        allow_ips: '10.0.0.1\n10.0.0.2\n192.168.0.0/16',
        group: 'auto',
        rpm_limit: 0,
        tpm_limit: 0,
        concurrency_limit: 0,
      },
    });
  });

  it('takes the rate and concurrency limits as whole numbers within their bounds', () => {
    const form = emptyTokenForm();
    const built = buildTokenPayload(
      { ...form, rpmLimit: ' 60 ', tpmLimit: '', concurrencyLimit: '3' },
      false,
    );
    expect(built.ok && built.fields).toMatchObject({ rpm_limit: 60, tpm_limit: 0, concurrency_limit: 3 });
    for (const bad of [
      { rpmLimit: '-1' },
      { tpmLimit: '2.5' },
      { concurrencyLimit: '100001' },
      { tpmLimit: '2000000001' },
      { rpmLimit: 'x' },
    ]) {
      expect(buildTokenPayload({ ...form, ...bad }, false)).toEqual({ ok: false, error: 'limitInvalid' });
    }
  });

  it('refuses a bad expiry, a negative or fractional quota, a bad count and a long name', () => {
    const form = emptyTokenForm();
    expect(buildTokenPayload({ ...form, expiry: '2031-13-01 00:00:00' }, true)).toEqual({
      ok: false,
      error: 'expiryFormat',
    });
    expect(buildTokenPayload({ ...form, remainQuota: '-1' }, true)).toEqual({
      ok: false,
      error: 'quotaInvalid',
    });
    expect(buildTokenPayload({ ...form, remainQuota: '1.5' }, true)).toEqual({
      ok: false,
      error: 'quotaInvalid',
    });
    expect(buildTokenPayload({ ...form, remainQuota: '1e30' }, true)).toEqual({
      ok: false,
      error: 'quotaInvalid',
    });
    for (const count of ['0', '101', '2.5', 'x', '']) {
      expect(buildTokenPayload({ ...form, count }, true)).toEqual({ ok: false, error: 'countInvalid' });
    }
    expect(buildTokenPayload({ ...form, name: 'x'.repeat(51) }, true)).toEqual({
      ok: false,
      error: 'nameTooLong',
    });
    // Fifty characters of CJK are fine: length counts characters.
    expect(buildTokenPayload({ ...form, name: '令'.repeat(50) }, true).ok).toBe(true);
  });

  it('ignores the count and the quota text when editing an unlimited token', () => {
    const built = buildTokenPayload(
      { ...emptyTokenForm(), unlimited: true, remainQuota: 'n/a', count: 'x' },
      false,
    );
    expect(built.ok && built.fields.unlimited_quota).toBe(true);
  });

  it('loads a stored token into the form', () => {
    const token: Token = {
      id: 1,
      name: 'a',
      key: 'abcd**wxyz',
      status: 1,
      created_time: 1,
      expired_time: -1,
      remain_quota: 42,
      used_quota: 0,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'm1, m2,',
      allow_ips: '1.1.1.1',
      group: 'vip',
      rpm_limit: 30,
      concurrency_limit: 2,
      user_id: 1,
      accessed_time: 0,
      tpm_limit: 0,
      budget: null,
    };
    expect(tokenFormOf(token)).toMatchObject({
      expiry: '',
      remainQuota: '42',
      modelLimits: ['m1', 'm2'],
      group: 'vip',
      rpmLimit: '30',
      tpmLimit: '0',
      concurrencyLimit: '2',
    });
  });
});

describe('status and groups', () => {
  it('names the statuses, limited models for enabled tokens with limits', () => {
    expect(tokenStatusName({ status: 1, model_limits_enabled: false })).toBe('enabled');
    expect(tokenStatusName({ status: 1, model_limits_enabled: true })).toBe('limited');
    expect(tokenStatusName({ status: 2, model_limits_enabled: true })).toBe('disabled');
    expect(tokenStatusName({ status: 3, model_limits_enabled: false })).toBe('expired');
    expect(tokenStatusName({ status: 4, model_limits_enabled: false })).toBe('exhausted');
    expect(tokenStatusName({ status: 9, model_limits_enabled: false })).toBe('unknown');
  });

  it('puts auto first and selects it only when the default auto group is on', () => {
    const groups = {
      default: { desc: 'Default', ratio: 1 },
      auto: { desc: 'Auto', ratio: null },
      vip: { desc: 'VIP', ratio: 2 },
    };
    const on = groupChoices(groups, true);
    expect(on.map((choice) => choice.value)).toEqual(['auto', 'default', 'vip']);
    expect(defaultGroupOf(on, true)).toBe('auto');
    const off = groupChoices(groups, false);
    expect(off.map((choice) => choice.value)).toEqual(['default', 'vip', 'auto']);
    expect(defaultGroupOf(off, false)).toBe('');
    expect(defaultGroupOf(groupChoices({ default: { desc: '', ratio: 1 } }, true), true)).toBe('');
  });
});
