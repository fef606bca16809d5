/**
 * Quota as people read it (docs/decisions.md#quota-display): in currency mode a dollar amount with 2 decimals, otherwise
 * the raw units shortened with k from 10,000 up, then M and B, with one decimal (docs/decisions.md#home-notice-footer: 12.3k).
 * Pure functions: the console's hooks feed them the options from the public status.
 */

/** Units of quota per dollar when the server has not said otherwise (`QuotaPerUnit`). */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

export interface QuotaDisplayOptions {
  /** `status.display_in_currency`: show dollars instead of raw units. */
  displayInCurrency: boolean;
  /** `status.quota_per_unit`: units of quota per dollar. */
  quotaPerUnit: number;
}

export const DEFAULT_QUOTA_DISPLAY: QuotaDisplayOptions = {
  displayInCurrency: true,
  quotaPerUnit: DEFAULT_QUOTA_PER_UNIT,
};

/** Reads the two display options from a public status object (or its cached copy); unknown → defaults. */
export function quotaDisplayFromStatus(
  status: { display_in_currency?: unknown; quota_per_unit?: unknown } | null | undefined,
): QuotaDisplayOptions {
  const perUnit = Number(status?.quota_per_unit);
  const inCurrency = status?.display_in_currency;
  return {
    displayInCurrency:
      typeof inCurrency === 'boolean'
        ? inCurrency
        : inCurrency === 'true'
          ? true
          : inCurrency === 'false'
            ? false
            : DEFAULT_QUOTA_DISPLAY.displayInCurrency,
    quotaPerUnit: Number.isFinite(perUnit) && perUnit > 0 ? perUnit : DEFAULT_QUOTA_PER_UNIT,
  };
}

function usablePerUnit(quotaPerUnit: number): number {
  return Number.isFinite(quotaPerUnit) && quotaPerUnit > 0 ? quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
}

/** Dollars worth `quota` units. */
export function quotaToCurrency(quota: number, quotaPerUnit: number = DEFAULT_QUOTA_PER_UNIT): number {
  return quota / usablePerUnit(quotaPerUnit);
}

/** Units of quota worth `amount` dollars, rounded to a whole unit (the server stores integers). */
export function currencyToQuota(amount: number, quotaPerUnit: number = DEFAULT_QUOTA_PER_UNIT): number {
  return Math.round(amount * usablePerUnit(quotaPerUnit));
}

const SHORT_UNITS: readonly { value: number; suffix: string }[] = [
  { value: 1e9, suffix: 'B' },
  { value: 1e6, suffix: 'M' },
  { value: 1e3, suffix: 'k' },
];

/** Threshold below which a number is written in full (spec: "k from 10,000 up"). */
export const SHORTEN_FROM = 10_000;

function trimDecimal(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/**
 * 9999 → "9999", 12345 → "12.3k", 1_500_000 → "1.5M", 2e9 → "2B". One decimal, dropped when zero;
 * rounding never shows "1000k" (it moves to the next unit). Negative numbers keep their sign.
 */
export function formatShortNumber(value: number): string {
  if (!Number.isFinite(value)) {
    return String(value);
  }
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs < SHORTEN_FROM) {
    return `${sign}${Number.isInteger(abs) ? abs : Number(abs.toFixed(2))}`;
  }
  for (let i = 0; i < SHORT_UNITS.length; i += 1) {
    const unit = SHORT_UNITS[i];
    if (abs >= unit.value) {
      const rounded = Math.round((abs / unit.value) * 10) / 10;
      // 999_960 would read "1000k": the bigger unit says it better.
      const bigger = SHORT_UNITS[i - 1];
      if (bigger && rounded * unit.value >= bigger.value) {
        return `${sign}${trimDecimal((Math.round((abs / bigger.value) * 10) / 10).toFixed(1))}${bigger.suffix}`;
      }
      return `${sign}${trimDecimal(rounded.toFixed(1))}${unit.suffix}`;
    }
  }
  return `${sign}${abs}`;
}

/** "$12.34" (or "-$0.50"): the dollar value with exactly 2 decimals. */
export function formatCurrency(amount: number): string {
  if (!Number.isFinite(amount)) {
    return String(amount);
  }
  const fixed = Math.abs(amount).toFixed(2);
  // -0.001 rounds to "0.00": no minus sign on a zero.
  const sign = amount < 0 && fixed !== '0.00' ? '-' : '';
  return `${sign}$${fixed}`;
}

/**
 * The cost of one call: in currency mode with 6 decimals (a cheap call costs a fraction of a cent,
 * which 2 decimals would show as "$0.00"), otherwise the raw units in full.
 */
export function formatCallCost(quota: number, options: QuotaDisplayOptions = DEFAULT_QUOTA_DISPLAY): string {
  if (!options.displayInCurrency) {
    return formatShortNumber(quota);
  }
  const amount = quotaToCurrency(quota, options.quotaPerUnit);
  if (!Number.isFinite(amount)) {
    return String(amount);
  }
  const fixed = Math.abs(amount).toFixed(6);
  const sign = amount < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}$${fixed}`;
}

/** The quota as the spec displays it under the given options. */
export function formatQuota(quota: number, options: QuotaDisplayOptions = DEFAULT_QUOTA_DISPLAY): string {
  if (options.displayInCurrency) {
    return formatCurrency(quotaToCurrency(quota, options.quotaPerUnit));
  }
  return formatShortNumber(quota);
}

/**
 * Both readings at once, for places that show the raw units next to the money (the add-quota dialog,
 * transfer dialog): "$1.00 (500000)" in currency mode, "500k" otherwise.
 */
export function formatQuotaWithUnits(
  quota: number,
  options: QuotaDisplayOptions = DEFAULT_QUOTA_DISPLAY,
): string {
  return options.displayInCurrency
    ? `${formatQuota(quota, options)} (${quota})`
    : formatQuota(quota, options);
}
