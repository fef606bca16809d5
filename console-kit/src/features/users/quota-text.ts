import { useGetStatusQuery } from '../../api/gatehouse-api';
import type { SystemStatus } from '../../api/api-types';
import { formatQuota, quotaDisplayFromStatus, type QuotaDisplayOptions } from '../../format/quota';
import { useConsoleStorage } from '../../provider/console-context';
import { StorageKeys } from '../../provider/console-storage';

/** The single place where the users and settings screens turn quota into text (the kit's formatter). */
export type QuotaDisplay = QuotaDisplayOptions;

export function quotaText(quota: number, display: QuotaDisplay): string {
  return formatQuota(quota, display);
}

export const quotaDisplayOf = quotaDisplayFromStatus;

/** The display settings from the public status (the cached copy until the fresh one arrives). */
export function useQuotaDisplay(): QuotaDisplay {
  const storage = useConsoleStorage();
  const { data } = useGetStatusQuery();
  return quotaDisplayFromStatus(data ?? storage.getJson<SystemStatus>(StorageKeys.status));
}
