import { describe, expect, it } from 'vitest';
import { statusOf } from '../test/wire-fixtures';
import { authorizeUrlOf, callbackParams, normalizeOAuthState, providerEnabled } from './oauth-redirect';

const status = statusOf({
  github_oauth: true,
  github_client_id: 'gh-client',
  oidc_enabled: true,
  oidc_client_id: 'oidc-client',
  linuxdo_oauth: true,
  linuxdo_client_id: 'ld-client',
});

describe('normalizeOAuthState', () => {
  it('accepts the bare state string', () => {
    expect(normalizeOAuthState('abc')).toEqual({ state: 'abc' });
  });

  it('keeps the address the server built and the OIDC extras', () => {
    const answer = {
      state: 's1',
      authorize_url: 'https://id.example.com/authorize?client_id=c&state=s1&code_challenge=x&nonce=n',
      redirect_uri: 'https://gw.example.com/oauth/oidc',
      scope: 'openid profile email',
      nonce: 'n',
      code_challenge: 'x',
      code_challenge_method: 'S256',
      extra: 1,
    };
    const state = normalizeOAuthState(answer);
    expect(state).toEqual({
      state: 's1',
      authorize_url: answer.authorize_url,
      redirect_uri: answer.redirect_uri,
      scope: answer.scope,
      nonce: 'n',
      code_challenge: 'x',
      code_challenge_method: 'S256',
    });
    expect(authorizeUrlOf(state)).toBe(answer.authorize_url);
  });

  it('never follows an address that is not http(s)', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'http://', 42]) {
      const state = normalizeOAuthState({ state: 's', authorize_url: bad });
      expect(state?.state).toBe('s');
      expect(authorizeUrlOf(state)).toBeNull();
    }
  });

  it('refuses answers without a state', () => {
    expect(normalizeOAuthState('')).toBeNull();
    expect(normalizeOAuthState(null)).toBeNull();
    expect(normalizeOAuthState({ state: 5, authorize_url: 'https://x.example' })).toBeNull();
    expect(authorizeUrlOf(null)).toBeNull();
    expect(authorizeUrlOf({ state: 'bare' })).toBeNull();
  });
});

describe('callbackParams', () => {
  it('forwards code and state, and iss for OIDC only', () => {
    const search = new URLSearchParams('code=c1&state=s1&iss=https%3A%2F%2Fid.example.com&x=1');
    expect(callbackParams('oidc', search)).toEqual({
      code: 'c1',
      state: 's1',
      iss: 'https://id.example.com',
    });
    expect(callbackParams('github', search)).toEqual({ code: 'c1', state: 's1' });
  });

  it('has nothing to forward without a code', () => {
    expect(callbackParams('github', new URLSearchParams('error=access_denied&state=s'))).toBeNull();
  });
});

describe('providerEnabled', () => {
  it('needs the switch and the public client id', () => {
    expect(providerEnabled('github', status)).toBe(true);
    expect(providerEnabled('github', { ...status, github_oauth: false })).toBe(false);
    expect(providerEnabled('oidc', status)).toBe(true);
    expect(providerEnabled('oidc', { ...status, oidc_client_id: '' })).toBe(false);
    expect(providerEnabled('linuxdo', { ...status, linuxdo_client_id: '' })).toBe(false);
    expect(providerEnabled('linuxdo', null)).toBe(false);
  });
});
