import { useCallback, useMemo } from 'react';
import { gatehouseApi } from '../../api/gatehouse-api';
import type { Schemas } from '../../api/wire';
import { useConsoleDispatch } from '../../provider/store-context';
import { saveOptionEntries, type OptionEntry, type SaveReport } from './option-save';

/** `GET /api/option/` → one item per key; secrets are never listed, root-only keys are marked for admins. */
export type OptionItem = Schemas['OptionListItem'];

export const optionsApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Options', 'Status'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      getOptions: builder.query<OptionItem[], void>({
        query: () => '/api/option/',
        providesTags: ['Options'],
      }),
      /** One key per call; an empty value keeps a secret unless `clear` is set (docs/api.md). */
      updateOption: builder.mutation<unknown, { key: string; value: string; clear?: boolean }>({
        query: (body) => ({ url: '/api/option/', method: 'PUT', body }),
      }),
      resetModelRatio: builder.mutation<unknown, void>({
        query: () => ({ url: '/api/option/rest_model_ratio', method: 'POST' }),
        invalidatesTags: ['Options', 'Status'],
      }),
      /** Deletes logs older than the timestamp (seconds); answers the number removed. */
      deleteLogsBefore: builder.mutation<number, number>({
        query: (timestamp) => ({ url: `/api/log/?target_timestamp=${timestamp}`, method: 'DELETE' }),
      }),
      getEnabledModels: builder.query<string[], void>({
        query: () => '/api/channel/models_enabled',
      }),
      /** Served models the relay cannot price, by its own lookup (prefixes included). */
      getUnpricedModels: builder.query<string[], void>({
        query: () => '/api/pricing/unpriced',
        providesTags: ['Options'],
      }),
    }),
  });

export const {
  useGetOptionsQuery,
  useUpdateOptionMutation,
  useResetModelRatioMutation,
  useDeleteLogsBeforeMutation,
  useGetEnabledModelsQuery,
  useGetUnpricedModelsQuery,
} = optionsApi;

export interface OptionValues {
  values: Record<string, string>;
  rootOnly: ReadonlySet<string>;
  isLoading: boolean;
  error: unknown;
}

/** The stored options as a key → value map (one request shared by every panel on the page). */
export function useOptionValues(): OptionValues {
  const query = useGetOptionsQuery();
  return useMemo(() => {
    const values: Record<string, string> = {};
    const rootOnly = new Set<string>();
    for (const item of query.data ?? []) {
      values[item.key] = item.value;
      if (item.root_only) rootOnly.add(item.key);
    }
    return { values, rootOnly, isLoading: query.isLoading, error: query.error };
  }, [query.data, query.isLoading, query.error]);
}

/** Saves entries one by one, then refreshes the options and the public status once. */
export function useSaveOptions(): (entries: readonly OptionEntry[]) => Promise<SaveReport> {
  const [update] = useUpdateOptionMutation();
  const dispatch = useConsoleDispatch();
  return useCallback(
    async (entries) => {
      const report = await saveOptionEntries(entries, (entry) => update(entry).unwrap());
      if (report.saved.length > 0) {
        dispatch(optionsApi.util.invalidateTags(['Options', 'Status']));
      }
      return report;
    },
    [update, dispatch],
  );
}
