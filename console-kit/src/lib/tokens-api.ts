import { gatehouseApi } from '../api/gatehouse-api';
import type { Budget } from './budget-rules';
import type { ApiBody, Checked, Page, Schemas } from '../api/wire';

/**
 * A token as `/api/token` lists it: the key masked; the full key comes only from `POST /{id}/key`.
 * `budget`: caps per day, week and month (0 = none); null = no budget.
 */
export type Token = Schemas['TokenView'];

export type TokenPage = Page<Token>;

export interface TokenListArgs {
  keyword: string;
  token: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface TokenFields {
  name: string;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
  /** Periodic budget; null clears it (left out of a new token without one). */
  budget?: Budget | null;
}

export type CreateTokenPayload = Checked<TokenFields & { count: number }, ApiBody<'/api/token', 'post'>>;
export type UpdateTokenPayload = Checked<
  Partial<TokenFields> & { id: number; status?: 1 | 2 },
  ApiBody<'/api/token', 'put'>
>;

/** `GET /api/user/self/groups`: group → description and ratio (`auto` has ratio null). */
export type UserGroups = Record<string, { desc: string; ratio: number | string | null }>;

/** Plain paging when nothing is searched for, else the search endpoint (same shape). */
export function tokenListUrl({ keyword, token, page, pageSize }: TokenListArgs): string {
  const params = new URLSearchParams({ p: String(page), page_size: String(pageSize) });
  if (keyword.trim() === '' && token.trim() === '') {
    return `/api/token/?${params.toString()}`;
  }
  params.set('keyword', keyword.trim());
  params.set('token', token.trim());
  return `/api/token/search?${params.toString()}`;
}

export const tokensApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Tokens', 'UserGroups', 'UserModels'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      listTokens: builder.query<TokenPage, TokenListArgs>({
        query: (args) => tokenListUrl(args),
        providesTags: ['Tokens'],
      }),
      getToken: builder.query<Token, number>({
        query: (id) => `/api/token/${id}`,
        providesTags: ['Tokens'],
      }),
      createToken: builder.mutation<Token[], CreateTokenPayload>({
        query: (body) => ({ url: '/api/token/', method: 'POST', body }),
        invalidatesTags: ['Tokens'],
      }),
      updateToken: builder.mutation<Token, UpdateTokenPayload>({
        query: (body) => ({ url: '/api/token/', method: 'PUT', body }),
        invalidatesTags: ['Tokens'],
      }),
      setTokenStatus: builder.mutation<Token, { id: number; status: number }>({
        query: (body) => ({ url: '/api/token/?status_only=true', method: 'PUT', body }),
        invalidatesTags: ['Tokens'],
      }),
      deleteToken: builder.mutation<null, number>({
        query: (id) => ({ url: `/api/token/${id}`, method: 'DELETE' }),
        invalidatesTags: ['Tokens'],
      }),
      deleteTokens: builder.mutation<number, number[]>({
        query: (ids) => ({ url: '/api/token/batch', method: 'POST', body: { ids } }),
        invalidatesTags: ['Tokens'],
      }),
      /** The full key (`sk-…`) of one of the caller's tokens (docs/decisions.md#full-key-fetch). */
      fetchTokenKey: builder.mutation<{ key: string }, number>({
        query: (id) => ({ url: `/api/token/${id}/key`, method: 'POST' }),
      }),
      getUserGroups: builder.query<UserGroups, void>({
        query: () => '/api/user/self/groups',
        providesTags: ['UserGroups'],
      }),
      getUserModels: builder.query<string[], void>({
        query: () => '/api/user/models',
        providesTags: ['UserModels'],
      }),
    }),
  });

export const {
  useListTokensQuery,
  useGetTokenQuery,
  useCreateTokenMutation,
  useUpdateTokenMutation,
  useSetTokenStatusMutation,
  useDeleteTokenMutation,
  useDeleteTokensMutation,
  useFetchTokenKeyMutation,
  useGetUserGroupsQuery,
  useGetUserModelsQuery,
} = tokensApi;
