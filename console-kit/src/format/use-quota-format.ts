import { useCallback, useMemo } from 'react';
import { useSystemStatus } from '../provider/use-system-status';
import { formatCallCost, formatQuota, quotaDisplayFromStatus, type QuotaDisplayOptions } from './quota';

/** `formatQuota` bound to the display options of the server's status (or its cached copy). */
export function useQuotaFormat(): {
  options: QuotaDisplayOptions;
  formatQuota: (quota: number) => string;
  /** One call's cost, with the decimals a fraction of a cent needs. */
  formatCallCost: (quota: number) => string;
} {
  const { status } = useSystemStatus();
  const displayInCurrency = status?.display_in_currency;
  const quotaPerUnit = status?.quota_per_unit;
  const options = useMemo(
    () => quotaDisplayFromStatus({ display_in_currency: displayInCurrency, quota_per_unit: quotaPerUnit }),
    [displayInCurrency, quotaPerUnit],
  );
  const format = useCallback((quota: number) => formatQuota(quota, options), [options]);
  const callCost = useCallback((quota: number) => formatCallCost(quota, options), [options]);
  return { options, formatQuota: format, formatCallCost: callCost };
}
