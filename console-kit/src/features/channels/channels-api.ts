import type { FetchArgs } from '@reduxjs/toolkit/query';
import { gatehouseApi } from '../../api/gatehouse-api';
import type { ApiAnswer, ApiBody, ApiData, Checked, Schemas } from '../../api/wire';
import type { ConsoleRuntime } from '../../provider/console-runtime';
import { StorageKeys } from '../../provider/console-storage';

/** A channel as `/api/channel` answers it; `key` is always empty (write-only). */
export type Channel = Schemas['ChannelView'];

/** A tag row of tag mode: aggregates, `null` priority/weight/type when the children differ. */
export type ChannelTagRow = Schemas['ChannelTagRow'];

export type ChannelRow = Channel | ChannelTagRow;

export function isTagRow(row: ChannelRow): row is ChannelTagRow {
  return (row as ChannelTagRow).is_tag === true;
}

export type ChannelPage = ApiData<'/api/channel', 'get'>;

export interface ChannelListArgs {
  keyword: string;
  group: string;
  model: string;
  status: string;
  type: number | null;
  page: number;
  pageSize: number;
  idSort: boolean;
  tagMode: boolean;
}

/** The list call: plain paging without a search, else the search endpoint (same shape and options). */
export function channelListUrl(args: ChannelListArgs): string {
  const params = new URLSearchParams({
    p: String(args.page),
    page_size: String(args.pageSize),
    id_sort: String(args.idSort),
    tag_mode: String(args.tagMode),
  });
  if (args.status) params.set('status', args.status);
  if (args.type !== null) params.set('type', String(args.type));
  const searching = args.keyword.trim() !== '' || args.model.trim() !== '';
  if (args.group) params.set('group', args.group);
  if (!searching) return `/api/channel/?${params.toString()}`;
  params.set('keyword', args.keyword.trim());
  params.set('model', args.model.trim());
  return `/api/channel/search?${params.toString()}`;
}

/** Writable fields of a channel (create and update), checked against both documented bodies. */
export type ChannelPayload = Checked<
  ChannelFields,
  Partial<ApiBody<'/api/channel', 'post'> & ApiBody<'/api/channel', 'put'>>
>;

interface ChannelFields {
  id?: number;
  type?: number;
  name?: string;
  key?: string;
  base_url?: string;
  other?: string;
  openai_organization?: string;
  models?: string;
  group?: string;
  model_mapping?: string;
  status_code_mapping?: string;
  param_override?: string;
  setting?: string;
  priority?: number;
  weight?: number;
  tag?: string;
  test_model?: string;
  auto_ban?: 0 | 1;
  /** 1 enabled, 2 disabled, 3 automatically disabled. */
  status?: 1 | 2 | 3;
  max_input_tokens?: number;
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
  mode?: 'batch';
}

export type TagEditPayload = Checked<
  {
    tag: string;
    new_tag?: string;
    model_mapping?: string;
    models?: string;
    groups?: string[];
    priority?: number;
    weight?: number;
  },
  ApiBody<'/api/channel/tag', 'put'>
>;

export type TestResult = ApiAnswer<'/api/channel/test/{id}', 'get'>;

export type BalanceResult = ApiAnswer<'/api/channel/update_balance/{id}', 'get'>;

export type UpstreamClientType = Schemas['ClientTypeSeen'];

export type UpstreamGroup = Schemas['GroupSeen'];

/**
 * The test and balance calls answer `{success, message, time|balance}` without `data`: wrapping the
 * body keeps the envelope unwrapping from dropping the extra field.
 */
function raw(url: string): FetchArgs {
  return {
    url,
    responseHandler: async (response: Response) => ({ answer: (await response.json()) as unknown }),
  };
}

export const channelsApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Channels', 'Groups'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      listChannels: builder.query<ChannelPage, ChannelListArgs>({
        query: (args) => channelListUrl(args),
        providesTags: ['Channels'],
      }),
      getChannel: builder.query<Channel, number>({
        query: (id) => `/api/channel/${id}`,
        providesTags: ['Channels'],
      }),
      createChannel: builder.mutation<{ id: number; ids: number[] }, ChannelPayload>({
        query: (body) => ({ url: '/api/channel/', method: 'POST', body }),
        invalidatesTags: ['Channels'],
      }),
      updateChannel: builder.mutation<Channel, ChannelPayload & { id: number }>({
        query: (body) => ({ url: '/api/channel/', method: 'PUT', body }),
        invalidatesTags: ['Channels'],
      }),
      deleteChannel: builder.mutation<null, number>({
        query: (id) => ({ url: `/api/channel/${id}`, method: 'DELETE' }),
        invalidatesTags: ['Channels'],
      }),
      deleteDisabled: builder.mutation<number, void>({
        query: () => ({ url: '/api/channel/disabled', method: 'DELETE' }),
        invalidatesTags: ['Channels'],
      }),
      batchDelete: builder.mutation<number, number[]>({
        query: (ids) => ({ url: '/api/channel/batch', method: 'POST', body: { ids } }),
        invalidatesTags: ['Channels'],
      }),
      fixAbilities: builder.mutation<{ success: number; fails: number }, void>({
        query: () => ({ url: '/api/channel/fix', method: 'POST' }),
        invalidatesTags: ['Channels'],
      }),
      setTagStatus: builder.mutation<number, { tag: string; enabled: boolean }>({
        query: ({ tag, enabled }) => ({
          url: `/api/channel/tag/${enabled ? 'enabled' : 'disabled'}`,
          method: 'POST',
          body: { tag },
        }),
        invalidatesTags: ['Channels'],
      }),
      editTag: builder.mutation<number, TagEditPayload>({
        query: (body) => ({ url: '/api/channel/tag', method: 'PUT', body }),
        invalidatesTags: ['Channels'],
      }),
      batchTag: builder.mutation<number, { ids: number[]; tag: string }>({
        query: (body) => ({ url: '/api/channel/batch/tag', method: 'POST', body }),
        invalidatesTags: ['Channels'],
      }),
      copyChannel: builder.mutation<{ id: number }, { id: number; suffix: string; resetBalance: boolean }>({
        query: ({ id, suffix, resetBalance }) => ({
          url: `/api/channel/copy/${id}?${new URLSearchParams({ suffix, reset_balance: String(resetBalance) }).toString()}`,
          method: 'POST',
        }),
        invalidatesTags: ['Channels'],
      }),
      testChannel: builder.mutation<TestResult, { id: number; model?: string }>({
        query: ({ id, model }) =>
          raw(`/api/channel/test/${id}${model ? `?model=${encodeURIComponent(model)}` : ''}`),
        transformResponse: (body: { answer: TestResult }) => body.answer,
        invalidatesTags: ['Channels'],
      }),
      testAll: builder.mutation<null, void>({
        query: () => '/api/channel/test',
      }),
      updateBalance: builder.mutation<BalanceResult, number>({
        query: (id) => raw(`/api/channel/update_balance/${id}`),
        transformResponse: (body: { answer: BalanceResult }) => body.answer,
        invalidatesTags: ['Channels'],
      }),
      updateAllBalances: builder.mutation<null, void>({
        query: () => '/api/channel/update_balance',
      }),
      fetchModelsById: builder.mutation<string[], number>({
        query: (id) => `/api/channel/fetch_models/${id}`,
      }),
      fetchModelsByKey: builder.mutation<string[], { type: number; base_url: string; key: string }>({
        query: (body) => ({ url: '/api/channel/fetch_models', method: 'POST', body }),
      }),
      testUpstream: builder.query<{ groups: UpstreamGroup[] }, number>({
        query: (id) => `/api/channel/test_upstream/${id}`,
      }),
      builtInModels: builder.query<{ id: string; owned_by: string }[], void>({
        query: () => '/api/channel/models',
      }),
      enabledModels: builder.query<string[], void>({
        query: () => '/api/channel/models_enabled',
      }),
      typeModels: builder.query<Record<string, string[]>, void>({
        query: () => '/api/models',
        async onQueryStarted(_arg, { queryFulfilled, extra }) {
          try {
            const { data } = await queryFulfilled;
            // The spec keeps the models of each channel type in localStorage (channel_models).
            (extra as ConsoleRuntime).storage.setJson(StorageKeys.channelModels, data);
          } catch {
            // Failure is reported through the query state.
          }
        },
      }),
      channelGroups: builder.query<string[], void>({
        query: () => '/api/group/',
        providesTags: ['Groups'],
      }),
    }),
  });

export const {
  useListChannelsQuery,
  useGetChannelQuery,
  useCreateChannelMutation,
  useUpdateChannelMutation,
  useDeleteChannelMutation,
  useDeleteDisabledMutation,
  useBatchDeleteMutation,
  useFixAbilitiesMutation,
  useSetTagStatusMutation,
  useEditTagMutation,
  useBatchTagMutation,
  useCopyChannelMutation,
  useTestChannelMutation,
  useTestAllMutation,
  useUpdateBalanceMutation,
  useUpdateAllBalancesMutation,
  useFetchModelsByIdMutation,
  useFetchModelsByKeyMutation,
  useTestUpstreamQuery,
  useBuiltInModelsQuery,
  useEnabledModelsQuery,
  useTypeModelsQuery,
  useChannelGroupsQuery,
} = channelsApi;
