import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { envelope, installFakeServer, jsonResponse, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { OAuthCallbackPage } from './oauth-callback-page';

vi.setConfig({ testTimeout: 20_000 });

const carol = { id: 9, username: 'github_9', display_name: 'Carol', role: 1, status: 1, group: 'default' };

describe('OAuthCallbackPage', () => {
  it('exchanges code and state once, stores the user and lands on /token', async () => {
    const server = installFakeServer({ 'GET /api/oauth/github': () => envelope(carol) });
    renderInConsole(<OAuthCallbackPage />, {
      path: '/oauth/github?code=c0de&state=st4te',
      route: '/oauth/:provider',
    });

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(carol);
    const calls = server.requests.filter((request) => request.path === '/api/oauth/github');
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0].request.url).search).toBe('?code=c0de&state=st4te');
  });

  it('treats message "bind" as a finished binding and goes to /personal', async () => {
    window.localStorage.setItem('user', JSON.stringify({ ...carol, username: 'carol' }));
    installFakeServer({
      'GET /api/oauth/oidc': () => jsonResponse({ success: true, message: 'bind', data: null }),
    });
    renderInConsole(<OAuthCallbackPage />, { path: '/oauth/oidc?code=c&state=s', route: '/oauth/:provider' });

    expect((await screen.findByTestId('location')).textContent).toBe('/personal');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toMatchObject({ username: 'carol' });
  });

  it('forwards the issuer an OIDC provider named on the redirect', async () => {
    const server = installFakeServer({ 'GET /api/oauth/oidc': () => envelope(carol) });
    renderInConsole(<OAuthCallbackPage />, {
      path: '/oauth/oidc?code=c1&state=s1&iss=https%3A%2F%2Fid.example.com&session_state=zz',
      route: '/oauth/:provider',
    });

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    const calls = server.requests.filter((request) => request.path === '/api/oauth/oidc');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(new URL(calls[0].request.url).searchParams)).toEqual({
      code: 'c1',
      state: 's1',
      iss: 'https://id.example.com',
    });
  });

  it('shows the refusal and returns to /login after a moment', async () => {
    installFakeServer({ 'GET /api/oauth/linuxdo': () => refusal('state 无效或已过期') });
    renderInConsole(<OAuthCallbackPage />, {
      path: '/oauth/linuxdo?code=c&state=old',
      route: '/oauth/:provider',
      language: 'zh',
    });

    expect((await screen.findAllByText('state 无效或已过期')).length).toBeGreaterThan(0);
    expect(screen.getByText('操作失败，重定向至登录界面中…')).toBeTruthy();
    expect((await screen.findByTestId('location', {}, { timeout: 4000 })).textContent).toBe('/login');
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('sends nothing when the provider returned an error instead of a code', async () => {
    const server = installFakeServer({});
    renderInConsole(<OAuthCallbackPage />, {
      path: '/oauth/github?error=access_denied&error_description=The+user+denied+access',
      route: '/oauth/:provider',
    });

    expect((await screen.findAllByText('The user denied access')).length).toBeGreaterThan(0);
    expect(server.requests.filter((request) => request.path.startsWith('/api/oauth'))).toHaveLength(0);
  });

  it('refuses an unknown provider', async () => {
    const server = installFakeServer({});
    renderInConsole(<OAuthCallbackPage />, {
      path: '/oauth/myspace?code=x&state=y',
      route: '/oauth/:provider',
    });
    expect((await screen.findAllByText('This sign-in method is not supported')).length).toBeGreaterThan(0);
    expect(server.requests.filter((request) => request.path.startsWith('/api/oauth'))).toHaveLength(0);
  });
});
