import type { SystemStatus } from '../api/api-types';

/** Third-party sign-ins that leave for the provider's page and come back to `/oauth/{provider}`. */
export const REDIRECT_PROVIDERS = ['github', 'oidc', 'linuxdo'] as const;
export type RedirectProvider = (typeof REDIRECT_PROVIDERS)[number];

export function isRedirectProvider(value: string | undefined): value is RedirectProvider {
  return (REDIRECT_PROVIDERS as readonly string[]).includes(value ?? '');
}

/**
 * `GET /api/oauth/state` → data. Without `provider` the bare state string; with
 * `?provider=github|oidc|linuxdo|telegram` an object whose `authorize_url` is the provider's page with
 * every parameter set (client id, return address, state, and for OIDC the PKCE challenge and nonce,
 * whose secret halves stay on the server). The console only follows that address (docs/oauth.md).
 */
export interface OAuthState {
  state: string;
  authorize_url?: string;
  redirect_uri?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  nonce?: string;
}

/** Only http(s) addresses are followed: an answer can never send the browser to `javascript:`. */
function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) {
    return undefined;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
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
    authorize_url: httpUrl(record.authorize_url),
    redirect_uri: text('redirect_uri'),
    scope: text('scope'),
    code_challenge: text('code_challenge'),
    code_challenge_method: text('code_challenge_method'),
    nonce: text('nonce'),
  };
}

/** Where the browser goes to sign in at the provider: the address the server built, nothing else. */
export function authorizeUrlOf(state: OAuthState | null | undefined): string | null {
  return state?.authorize_url ?? null;
}

/**
 * Whether the public status turns the provider's button on. The server builds the provider's address,
 * so the switch and the public client id are enough (an OIDC provider configured by its discovery
 * document has no authorization endpoint in the status).
 */
export function providerEnabled(
  provider: RedirectProvider,
  status: SystemStatus | null | undefined,
): boolean {
  switch (provider) {
    case 'github':
      return Boolean(status?.github_oauth && status.github_client_id);
    case 'oidc':
      return Boolean(status?.oidc_enabled && status.oidc_client_id);
    case 'linuxdo':
      return Boolean(status?.linuxdo_oauth && status.linuxdo_client_id);
  }
}

/**
 * The query the return page forwards to `GET /api/oauth/{provider}`: code and state, plus `iss` when an
 * OIDC provider sent it (RFC 9207; the server checks it against the issuer).
 */
export function callbackParams(
  provider: RedirectProvider,
  search: URLSearchParams,
): { code: string; state: string; iss?: string } | null {
  const code = search.get('code') ?? '';
  if (!code) {
    return null;
  }
  const iss = provider === 'oidc' ? (search.get('iss') ?? '') : '';
  return { code, state: search.get('state') ?? '', ...(iss ? { iss } : {}) };
}
