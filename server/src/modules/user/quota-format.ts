/** Quota as people read it: dollars with two decimals in currency mode, else shortened units. */
export function formatQuota(quota: number, quotaPerUnit: number, inCurrency: boolean): string {
  if (inCurrency && quotaPerUnit > 0) {
    const usd = quota / quotaPerUnit;
    return `${usd < 0 ? '-' : ''}$${Math.abs(usd).toFixed(2)}`;
  }
  return String(quota);
}
