import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Configuration, ServerMetadata } from 'openid-client';
import { fail } from '../../../common/app-error';
import { OptionService } from '../../option';
import { OAuthHttpService } from '../oauth-http.service';
import type { ProviderIdentity, StateRecord } from '../oauth.types';
import { OpenIdClient, openidClient } from '../openid-client.loader';

/** A discovered configuration is reused this long (the provider's keys and endpoints rarely change). */
const CACHE_MS = 5 * 60_000;
const SCOPE = 'openid profile email';

interface OidcSettings {
  wellKnown: string;
  clientId: string;
  clientSecret: string;
  authorization: string;
  token: string;
  userinfo: string;
}

/** What the browser needs to start an OIDC sign-in, and what the callback must check. */
export interface OidcStart {
  authorizeUrl: string;
  scope: string;
  nonce: string;
  verifier: string;
  challenge: string;
}

/**
 * Generic OpenID Connect with openid-client: discovery from oidc.well_known (or the three configured
 * endpoints), authorization code with PKCE (S256) and a nonce, the ID token validated (issuer,
 * audience, expiry, nonce; its signature against the provider's JWKS when discovery names one), then
 * the userinfo endpoint for the profile. Every request goes through the SSRF-safe client.
 *
 * Without oidc.well_known there is no key set and no declared issuer: the issuer is taken to be the
 * origin of the authorization endpoint, and the ID token arrives straight from the token endpoint.
 */
@Injectable()
export class OidcProvider {
  private readonly logger = new Logger('OidcOAuth');
  private cached?: { key: string; at: number; config: Promise<Configuration> };

  constructor(
    private readonly options: OptionService,
    private readonly http: OAuthHttpService,
  ) {}

  async start(
    state: string,
    redirectUri: string,
    secrets: { verifier: string; nonce: string },
  ): Promise<OidcStart> {
    const oc = await openidClient();
    const config = await this.configuration(oc);
    const challenge = await oc.calculatePKCECodeChallenge(secrets.verifier);
    const url = oc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      state,
      nonce: secrets.nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return { authorizeUrl: url.toString(), scope: SCOPE, challenge, ...secrets };
  }

  /** Fresh PKCE verifier and nonce (kept server-side with the state). */
  async secrets(): Promise<{ verifier: string; nonce: string }> {
    const oc = await openidClient();
    this.settings(); // refuse early when not configured
    return { verifier: oc.randomPKCECodeVerifier(), nonce: oc.randomNonce() };
  }

  async identify(
    code: string,
    state: string,
    iss: string | undefined,
    record: StateRecord,
  ): Promise<ProviderIdentity> {
    if (!record.verifier || !record.nonce || !record.redirectUri) throw fail('oauth_state_mismatch');
    const oc = await openidClient();
    const config = await this.configuration(oc);
    const callback = new URL(record.redirectUri);
    callback.search = '';
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    if (iss) callback.searchParams.set('iss', iss);
    let tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>;
    try {
      tokens = await oc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: record.verifier,
        expectedNonce: record.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
    } catch (e) {
      this.logger.warn(`code exchange failed: ${describe(e)}`);
      throw fail(isIdTokenProblem(e) ? 'oidc_id_token_invalid' : 'oauth_exchange_failed', {
        provider: 'OIDC',
      });
    }
    const claims = tokens.claims();
    const sub = claims?.sub;
    if (typeof sub !== 'string' || !sub || sub.length > 255) throw fail('oidc_id_token_invalid');
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        info = await oc.fetchUserInfo(config, tokens.access_token, sub);
      } catch (e) {
        this.logger.warn(`userinfo failed: ${describe(e)}`);
        throw fail('oauth_exchange_failed', { provider: 'OIDC' });
      }
    }
    const all: Record<string, unknown> = { ...claims, ...info };
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    return {
      id: sub,
      username: text(all.preferred_username),
      displayName: text(all.name) ?? text(all.preferred_username),
      email: all.email_verified === true ? (text(all.email) ?? null) : null,
    };
  }

  private settings(): OidcSettings {
    const o = this.options;
    const s: OidcSettings = {
      wellKnown: o.get('oidc.well_known'),
      clientId: o.get('oidc.client_id'),
      clientSecret: o.get('oidc.client_secret'),
      authorization: o.get('oidc.authorization_endpoint'),
      token: o.get('oidc.token_endpoint'),
      userinfo: o.get('oidc.user_info_endpoint'),
    };
    if (!s.clientId || (!s.wellKnown && (!s.authorization || !s.token))) {
      throw fail('oauth_not_configured', { provider: 'OIDC' });
    }
    return s;
  }

  private async configuration(oc: OpenIdClient): Promise<Configuration> {
    const s = this.settings();
    const key = createHash('sha256').update(JSON.stringify(s)).digest('hex');
    if (this.cached && this.cached.key === key && Date.now() - this.cached.at < CACHE_MS)
      return this.cached.config;
    const config = this.build(oc, s);
    this.cached = { key, at: Date.now(), config };
    config.catch(() => {
      if (this.cached?.config === config) this.cached = undefined;
    });
    return config;
  }

  private async build(oc: OpenIdClient, s: OidcSettings): Promise<Configuration> {
    let server: ServerMetadata;
    if (s.wellKnown) {
      try {
        const found = await oc.discovery(new URL(s.wellKnown), s.clientId, undefined, undefined, {
          [oc.customFetch]: this.http.asFetch,
          execute: s.wellKnown.startsWith('http:') ? [oc.allowInsecureRequests] : [],
          timeout: 15,
        });
        server = found.serverMetadata();
      } catch (e) {
        this.logger.warn(`discovery failed: ${describe(e)}`);
        throw fail('oidc_discovery_failed');
      }
    } else {
      server = {
        issuer: new URL(s.authorization).origin,
        authorization_endpoint: s.authorization,
        token_endpoint: s.token,
        ...(s.userinfo ? { userinfo_endpoint: s.userinfo } : {}),
      };
    }
    const methods = server.token_endpoint_auth_methods_supported;
    const basicOnly =
      !!methods && methods.includes('client_secret_basic') && !methods.includes('client_secret_post');
    const auth = !s.clientSecret
      ? oc.None()
      : basicOnly
        ? oc.ClientSecretBasic(s.clientSecret)
        : oc.ClientSecretPost(s.clientSecret);
    const config = new oc.Configuration(server, s.clientId, undefined, auth);
    config[oc.customFetch] = this.http.asFetch;
    config.timeout = 15;
    const endpoints = [server.token_endpoint, server.userinfo_endpoint, server.jwks_uri];
    if (endpoints.some((u) => typeof u === 'string' && u.startsWith('http:')))
      oc.allowInsecureRequests(config);
    if (server.jwks_uri) oc.enableNonRepudiationChecks(config);
    return config;
  }
}

/** The error and its causes (openid-client wraps the check that failed in a ClientError). */
function causes(e: unknown): Array<{ code?: string; message?: string; error?: string }> {
  const out: Array<{ code?: string; message?: string; error?: string }> = [];
  for (
    let cur = e as { cause?: unknown } | null;
    cur && typeof cur === 'object' && out.length < 5;
    cur = cur.cause as typeof cur
  ) {
    out.push(cur as { code?: string; message?: string; error?: string });
  }
  return out;
}

/** Failures of the ID token itself (signature, claims, timestamps, absence), as openid-client reports them. */
function isIdTokenProblem(e: unknown): boolean {
  const codes = [
    'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
    'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    'OAUTH_KEY_SELECTION_FAILED',
  ];
  return causes(e).some(
    (c) => (c.code && codes.includes(c.code)) || /JWT|ID Token|id_token|JWS/i.test(c.message ?? ''),
  );
}

function describe(e: unknown): string {
  return causes(e)
    .map((c) => [c.code, c.error, c.message].filter(Boolean).join(' '))
    .join(' <- ');
}
