import { buildCreateApi, coreModule } from '@reduxjs/toolkit/query';
import { reactHooksModule } from '@reduxjs/toolkit/query/react';
import type { ConsoleRuntime } from '../provider/console-runtime';
import { StorageKeys } from '../provider/console-storage';
import { useConsoleDispatch, useConsoleSelector, useConsoleStore } from '../provider/store-context';
import type {
  LoginPayload,
  SelfUser,
  SessionUser,
  SetupPayload,
  SetupState,
  SystemStatus,
  WithServerMessage,
} from './api-types';
import { envelopeBaseQuery } from './envelope-base-query';

const createConsoleApi = buildCreateApi(
  coreModule(),
  reactHooksModule({
    hooks: { useDispatch: useConsoleDispatch, useSelector: useConsoleSelector, useStore: useConsoleStore },
  }),
);

/** Status fields the spec also keeps in localStorage under their own names (docs/decisions.md#status-mirrors). */
const STATUS_MIRRORS: readonly [keyof SystemStatus, string][] = [
  ['system_name', StorageKeys.systemName],
  ['logo', StorageKeys.logo],
  ['footer_html', StorageKeys.footerHtml],
  ['quota_per_unit', StorageKeys.quotaPerUnit],
  ['display_in_currency', StorageKeys.displayInCurrency],
  ['docs_link', StorageKeys.docsLink],
  ['chats', StorageKeys.chats],
  ['default_collapse_sidebar', StorageKeys.defaultCollapseSidebar],
  ['enable_data_export', StorageKeys.enableDataExport],
  ['enable_drawing', StorageKeys.enableDrawing],
  ['enable_task', StorageKeys.enableTask],
  ['mj_notify_enabled', StorageKeys.mjNotifyEnabled],
];

function cacheStatus(runtime: ConsoleRuntime, status: SystemStatus): void {
  runtime.storage.setJson(StorageKeys.status, status);
  for (const [field, key] of STATUS_MIRRORS) {
    const value = status[field];
    if (value === undefined || value === null) {
      runtime.storage.removeItem(key);
    } else {
      runtime.storage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
}

const TAG_TYPES = [
  'Status',
  'Setup',
  'Self',
  'SelfModels',
  'SiteText',
  'Users',
  'Groups',
  'Options',
  'Tokens',
  'Channels',
  'Redemptions',
  'Logs',
] as const;

/** Everything cached that may hold text the server wrote in the caller's language. */
export const LANGUAGE_DEPENDENT_TAGS: readonly (typeof TAG_TYPES)[number][] = TAG_TYPES;

/**
 * The one api slice of the kit. Features add their endpoints with `gatehouseApi.injectEndpoints` from
 * their own folder, so a portal that imports one feature does not pull the others in. Tag types are
 * declared here for every feature; a feature needing a new one can add it with `enhanceEndpoints`.
 */
export const gatehouseApi = createConsoleApi({
  reducerPath: 'gatehouseApi',
  baseQuery: envelopeBaseQuery,
  tagTypes: TAG_TYPES,
  endpoints: (builder) => ({
    getStatus: builder.query<SystemStatus, void>({
      query: () => '/api/status',
      providesTags: ['Status'],
      async onQueryStarted(_arg, { queryFulfilled, extra }) {
        try {
          const { data } = await queryFulfilled;
          // The spec keeps the public status in localStorage so the next load can paint at once.
          cacheStatus(extra as ConsoleRuntime, data);
        } catch {
          // Failure is reported through the query state.
        }
      },
    }),
    getSetup: builder.query<SetupState, void>({
      query: () => '/api/setup',
      providesTags: ['Setup'],
    }),
    postSetup: builder.mutation<unknown, SetupPayload>({
      query: (body) => ({ url: '/api/setup', method: 'POST', body }),
      invalidatesTags: ['Setup', 'Status'],
    }),
    /** The answer's message carries the default-password warning (docs/decisions.md#login-failures-are-200). */
    login: builder.mutation<WithServerMessage<SessionUser>, LoginPayload & { turnstile?: string }>({
      query: ({ turnstile, ...body }) => ({
        url: '/api/user/login',
        method: 'POST',
        body,
        params: turnstile ? { turnstile } : undefined,
      }),
      transformResponse: (data: SessionUser, meta) => ({ data, message: meta?.message ?? '' }),
      invalidatesTags: ['Self'],
    }),
    logout: builder.mutation<unknown, void>({
      query: () => ({ url: '/api/user/logout', method: 'GET' }),
    }),
    getSelf: builder.query<SelfUser, void>({
      query: () => '/api/user/self',
      providesTags: ['Self'],
    }),
  }),
});

export const {
  useGetStatusQuery,
  useGetSetupQuery,
  usePostSetupMutation,
  useLoginMutation,
  useLogoutMutation,
  useGetSelfQuery,
} = gatehouseApi;
