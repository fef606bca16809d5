import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser } from '../api/api-types';
import { normalizeOAuthState, type OAuthState } from './oauth-redirect';

/** Fields the Telegram login widget hands over (docs/decisions.md#telegram-widget). */
export interface TelegramAuthData {
  id: number | string;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number | string;
  hash: string;
  lang?: string;
}

export function telegramParams(data: TelegramAuthData): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined && value !== null) {
      params[key] = String(value);
    }
  }
  return params;
}

export const authApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /**
     * A one-time state for a provider redirect (optionally carrying the invite code). Not cached.
     * Null when the answer held no usable state.
     */
    getOAuthState: builder.mutation<OAuthState | null, { aff?: string } | void>({
      query: (arg) => ({
        url: '/api/oauth/state',
        method: 'GET',
        params: arg && arg.aff ? { aff: arg.aff } : undefined,
      }),
      transformResponse: (data: unknown) => normalizeOAuthState(data),
    }),
    /** Scan-code login: the code the messaging app's official account sent. */
    wechatLogin: builder.mutation<SessionUser, { code: string }>({
      query: ({ code }) => ({ url: '/api/oauth/wechat', method: 'GET', params: { code } }),
      invalidatesTags: ['Self'],
    }),
    telegramLogin: builder.mutation<SessionUser, TelegramAuthData>({
      query: (data) => ({ url: '/api/oauth/telegram/login', method: 'GET', params: telegramParams(data) }),
      invalidatesTags: ['Self'],
    }),
  }),
});

export const { useGetOAuthStateMutation, useWechatLoginMutation, useTelegramLoginMutation } = authApi;
