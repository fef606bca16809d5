import { gatehouseApi } from '../../api/gatehouse-api';
import type { SessionUser, WithServerMessage } from '../../api/api-types';
import type { RedirectProvider } from '../auth/oauth-redirect';

export interface OAuthCallbackArgs {
  provider: RedirectProvider;
  code: string;
  state: string;
}

export const oauthApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /**
     * `GET /api/oauth/{type}?code&state`: message `bind` when the code bound the provider to the signed-in
     * account, else data is the signed-in user. A query, so the single-use code is sent once per page
     * even when React mounts the page twice.
     */
    completeOAuth: builder.query<WithServerMessage<SessionUser | null>, OAuthCallbackArgs>({
      query: ({ provider, code, state }) => ({
        url: `/api/oauth/${provider}`,
        params: { code, state },
      }),
      transformResponse: (data: SessionUser | null, meta) => ({ data, message: meta?.message ?? '' }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useCompleteOAuthQuery } = oauthApi;
