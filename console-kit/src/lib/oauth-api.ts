import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser, WithServerMessage } from '../api/api-types';
import { telegramParams, type TelegramAuthData } from './auth-api';
import { normalizeOAuthState, type OAuthState, type RedirectProvider } from './oauth-redirect';

export interface OAuthCallbackArgs {
  provider: RedirectProvider;
  code: string;
  state: string;
  /** OIDC: the issuer the provider named on the redirect, when it did. */
  iss?: string;
}

export const oauthApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /**
     * `GET /api/oauth/state?provider=&aff=`: a single-use state for this browser (and the signed-in user,
     * when binding) with the provider's authorization address built by the server. Not cached.
     */
    startOAuth: builder.mutation<
      OAuthState | null,
      { provider: RedirectProvider | 'telegram'; aff?: string }
    >({
      query: ({ provider, aff }) => ({
        url: '/api/oauth/state',
        method: 'GET',
        params: aff ? { provider, aff } : { provider },
      }),
      transformResponse: (data: unknown) => normalizeOAuthState(data),
    }),
    /**
     * `GET /api/oauth/{type}?code&state[&iss]`: message `bind` when the code bound the provider to the
     * signed-in account, else data is the signed-in user. A query, so the single-use code is sent once
     * per page even when React mounts the page twice.
     */
    completeOAuth: builder.query<WithServerMessage<SessionUser | null>, OAuthCallbackArgs>({
      query: ({ provider, code, state, iss }) => ({
        url: `/api/oauth/${provider}`,
        params: iss ? { code, state, iss } : { code, state },
      }),
      transformResponse: (data: SessionUser | null, meta) => ({ data, message: meta?.message ?? '' }),
      keepUnusedDataFor: 0,
    }),
    /** Scan-code sign-in (or sign-up, carrying the stored invitation code). */
    wechatSignIn: builder.mutation<SessionUser, { code: string; aff?: string }>({
      query: ({ code, aff }) => ({
        url: '/api/oauth/wechat',
        method: 'GET',
        params: aff ? { code, aff } : { code },
      }),
      invalidatesTags: ['Self'],
    }),
    /** Binds the Telegram account the widget signed to the signed-in user (JSON answer, message `bind`). */
    bindTelegram: builder.mutation<unknown, TelegramAuthData>({
      query: (data) => ({ url: '/api/oauth/telegram/bind', method: 'GET', params: telegramParams(data) }),
      invalidatesTags: ['Self'],
    }),
  }),
});

export const {
  useStartOAuthMutation,
  useCompleteOAuthQuery,
  useWechatSignInMutation,
  useBindTelegramMutation,
} = oauthApi;
