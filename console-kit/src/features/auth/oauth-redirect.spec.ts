import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../api/api-types';
import { buildAuthorizeUrl, normalizeOAuthState, providerEnabled } from './oauth-redirect';

const status: SystemStatus = {
  setup: true,
  github_oauth: true,
  github_client_id: 'gh-client',
  oidc_enabled: true,
  oidc_client_id: 'oidc-client',
  oidc_authorization_endpoint: 'https://id.example.com/authorize?tenant=acme',
  linuxdo_oauth: true,
  linuxdo_client_id: 'ld-client',
};
const callback = 'https://console.example.com/ai/oauth/oidc';

describe('normalizeOAuthState', () => {
  it('accepts the state as a string or inside an object', () => {
    expect(normalizeOAuthState('abc')).toEqual({ state: 'abc' });
    expect(
      normalizeOAuthState({ state: 'abc', code_challenge: 'cc', nonce: 'n1', redirect_uri: '', extra: 1 }),
    ).toEqual({
      state: 'abc',
      code_challenge: 'cc',
      code_challenge_method: undefined,
      nonce: 'n1',
      redirect_uri: undefined,
    });
  });

  it('refuses answers without a state', () => {
    expect(normalizeOAuthState('')).toBeNull();
    expect(normalizeOAuthState(null)).toBeNull();
    expect(normalizeOAuthState({ state: 5 })).toBeNull();
  });
});

describe('buildAuthorizeUrl', () => {
  it('sends GitHub the client id, state and the email scope', () => {
    const url = new URL(buildAuthorizeUrl('github', status, { state: 's1' }, callback) ?? '');
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'gh-client',
      scope: 'user:email',
      state: 's1',
    });
  });

  it('sends the OIDC provider the return address, PKCE challenge and nonce, keeping its own query', () => {
    const url = new URL(
      buildAuthorizeUrl('oidc', status, { state: 's2', code_challenge: 'chal', nonce: 'non' }, callback) ??
        '',
    );
    expect(url.origin + url.pathname).toBe('https://id.example.com/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 'acme',
      client_id: 'oidc-client',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: callback,
      state: 's2',
      code_challenge: 'chal',
      code_challenge_method: 'S256',
      nonce: 'non',
    });
  });

  it('uses the return address the server named', () => {
    const url = new URL(
      buildAuthorizeUrl(
        'linuxdo',
        status,
        { state: 's3', redirect_uri: 'https://gw.example.com/oauth/linuxdo' },
        callback,
      ) ?? '',
    );
    expect(url.searchParams.get('redirect_uri')).toBe('https://gw.example.com/oauth/linuxdo');
    expect(url.searchParams.get('client_id')).toBe('ld-client');
  });

  it('refuses to build a redirect to a non-http endpoint or without a client id', () => {
    expect(
      buildAuthorizeUrl(
        'oidc',
        { ...status, oidc_authorization_endpoint: 'javascript:alert(1)' },
        { state: 's' },
        callback,
      ),
    ).toBeNull();
    expect(
      buildAuthorizeUrl('github', { ...status, github_client_id: '' }, { state: 's' }, callback),
    ).toBeNull();
  });
});

describe('providerEnabled', () => {
  it('needs the switch and the public identifiers', () => {
    expect(providerEnabled('github', status)).toBe(true);
    expect(providerEnabled('github', { ...status, github_oauth: false })).toBe(false);
    expect(providerEnabled('oidc', { ...status, oidc_authorization_endpoint: '' })).toBe(false);
    expect(providerEnabled('linuxdo', null)).toBe(false);
  });
});
