import type { SystemStatus } from '../../api/api-types';

/** Third-party sign-ins that leave for the provider's page and come back to `/oauth/{provider}`. */
export const REDIRECT_PROVIDERS = ['github', 'oidc', 'linuxdo'] as const;
export type RedirectProvider = (typeof REDIRECT_PROVIDERS)[number];

export function isRedirectProvider(value: string | undefined): value is RedirectProvider {
  return (REDIRECT_PROVIDERS as readonly string[]).includes(value ?? '');
}

/**
 * `GET /api/oauth/state` → data: the one-time state, as a string or as an object that may add PKCE and
 * nonce values (decision 44) and the return address the server will use for the code exchange.
 */
export interface OAuthState {
  state: string;
  code_challenge?: string;
  code_challenge_method?: string;
  nonce?: string;
  redirect_uri?: string;
}

export function normalizeOAuthState(data: unknown): OAuthState | null {
  if (typeof data === 'string') {
    return data ? { state: data } : null;
  }
  if (typeof data !== 'object' || data === null) {
    return null;
  }
  const record = data as Record<string, unknown>;
  if (typeof record.state !== 'string' || !record.state) {
    return null;
  }
  const text = (key: string) => (typeof record[key] === 'string' && record[key] ? record[key] : undefined);
  return {
    state: record.state,
    code_challenge: text('code_challenge'),
    code_challenge_method: text('code_challenge_method'),
    nonce: text('nonce'),
    redirect_uri: text('redirect_uri'),
  };
}

export const GITHUB_AUTHORIZE_URL = 'https://github.com/login/oauth/authorize';
export const LINUXDO_AUTHORIZE_URL = 'https://connect.linux.do/oauth2/authorize';

/** Whether the public status turns the provider's button on (and gives what the redirect needs). */
export function providerEnabled(
  provider: RedirectProvider,
  status: SystemStatus | null | undefined,
): boolean {
  switch (provider) {
    case 'github':
      return Boolean(status?.github_oauth && status.github_client_id);
    case 'oidc':
      return Boolean(status?.oidc_enabled && status.oidc_client_id && status.oidc_authorization_endpoint);
    case 'linuxdo':
      return Boolean(status?.linuxdo_oauth && status.linuxdo_client_id);
  }
}

/**
 * The provider's authorization address with client id and state (decision 44), plus the PKCE challenge
 * and nonce when the server handed them out. `callbackUrl` is the console's `/oauth/{provider}` page;
 * OIDC always needs it, the others get it only when the server named one (their apps have it configured).
 */
export function buildAuthorizeUrl(
  provider: RedirectProvider,
  status: SystemStatus,
  state: OAuthState,
  callbackUrl: string,
): string | null {
  let base: string;
  const params = new URLSearchParams();
  switch (provider) {
    case 'github':
      base = GITHUB_AUTHORIZE_URL;
      params.set('client_id', status.github_client_id ?? '');
      params.set('scope', 'user:email');
      break;
    case 'oidc':
      base = status.oidc_authorization_endpoint ?? '';
      params.set('client_id', status.oidc_client_id ?? '');
      params.set('response_type', 'code');
      params.set('scope', 'openid profile email');
      break;
    case 'linuxdo':
      base = LINUXDO_AUTHORIZE_URL;
      params.set('client_id', status.linuxdo_client_id ?? '');
      params.set('response_type', 'code');
      break;
  }
  if (!/^https?:\/\//i.test(base) || !params.get('client_id')) {
    return null;
  }
  const redirectUri = state.redirect_uri ?? (provider === 'oidc' ? callbackUrl : undefined);
  if (redirectUri) {
    params.set('redirect_uri', redirectUri);
  }
  params.set('state', state.state);
  if (state.code_challenge) {
    params.set('code_challenge', state.code_challenge);
    params.set('code_challenge_method', state.code_challenge_method ?? 'S256');
  }
  if (state.nonce) {
    params.set('nonce', state.nonce);
  }
  const url = new URL(base);
  for (const [key, value] of params) {
    url.searchParams.set(key, value);
  }
  return url.toString();
}
