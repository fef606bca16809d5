import { describe, expect, it, vi } from 'vitest';

// Rendering MUI pages in happy-dom on a shared two-core machine can take seconds.
vi.setConfig({ testTimeout: 20_000 });
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { LoginPage } from './login-page';

const alice = { id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

const loginCalls = (server: ReturnType<typeof installFakeServer>) =>
  server.requests.filter((request) => request.path === '/api/user/login');

describe('LoginPage', () => {
  it('asks for both fields before calling the server', async () => {
    const server = installFakeServer({ 'GET /api/status': () => envelope({ setup: true }) });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login', language: 'zh' });

    await user.type(screen.getByLabelText('用户名/邮箱'), 'alice');
    await user.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('请输入用户名和密码！')).toBeTruthy();
    expect(loginCalls(server)).toHaveLength(0);
  });

  it('stores the returned user under `user` and goes to /token', async () => {
    const server = installFakeServer({ 'POST /api/user/login': () => envelope(alice) });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });

    await user.type(screen.getByLabelText('Username or email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    expect(loginCalls(server)[0]?.body).toEqual({ username: 'alice@example.com', password: 'correct-horse' });
  });

  it('lands on /token even when a guarded page sent the visitor here', async () => {
    installFakeServer({ 'POST /api/user/login': () => envelope(alice) });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login', state: { from: '/setting' } });

    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
  });

  it('shows the server message when the sign-in is refused', async () => {
    installFakeServer({ 'POST /api/user/login': () => refusal('用户名或密码错误，或用户已被封禁') });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });

    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('用户名或密码错误，或用户已被封禁')).toBeTruthy();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('passes on the default-password warning the server attaches to a successful sign-in', async () => {
    installFakeServer({
      'POST /api/user/login': () =>
        jsonResponse({
          success: true,
          message: 'You are using the default password!',
          data: { ...alice, role: 100 },
        }),
    });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });

    await user.type(screen.getByLabelText('Username or email'), 'root');
    await user.type(screen.getByLabelText('Password'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    // The success toast comes first; the warning follows it in the same snackbar.
    expect(await screen.findByText('Login successful!')).toBeTruthy();
    expect(
      await screen.findByText('You are using the default password!', {}, { timeout: 6000 }),
    ).toBeTruthy();
  }, 15_000);

  it('explains why the user is here after a session expired', async () => {
    installFakeServer({});
    renderInConsole(<LoginPage />, { path: '/login?expired=true', route: '/login' });

    expect(await screen.findByText('Not logged in or session expired. Please login again!')).toBeTruthy();
  });

  it('shows only the third-party buttons the status turns on, and keeps ?aff= for registration', async () => {
    installFakeServer({
      'GET /api/status': () =>
        envelope({
          setup: true,
          github_oauth: true,
          github_client_id: 'gh-client',
          oidc_enabled: false,
          linuxdo_oauth: true,
          linuxdo_client_id: '',
          wechat_login: true,
        }),
    });
    renderInConsole(<LoginPage />, { path: '/login?aff=INV42', route: '/login' });

    expect(await screen.findByRole('button', { name: 'Sign in with GitHub' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with WeChat (scan code)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with OIDC' })).toBeNull();
    // LinuxDO is switched on but has no client id: no button that would fail.
    expect(screen.queryByRole('button', { name: 'Sign in with LinuxDO' })).toBeNull();
    expect(window.localStorage.getItem('aff')).toBe('INV42');
  });

  it('signs in with a scan code and lands on the home page', async () => {
    const server = installFakeServer({
      'GET /api/status': () => envelope({ setup: true, wechat_login: true, wechat_qrcode: '/qr.png' }),
      'GET /api/oauth/wechat': (request) =>
        new URL(request.url).searchParams.get('code') === '123456'
          ? envelope(alice)
          : refusal('验证码错误或已过期'),
    });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });

    await user.click(await screen.findByRole('button', { name: 'Sign in with WeChat (scan code)' }));
    const dialog = await screen.findByRole('dialog', { name: 'WeChat scan-code sign-in' });
    await user.type(within(dialog).getByLabelText('Verification code'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('验证码错误或已过期')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('Verification code'));
    await user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    expect(server.requests.filter((r) => r.path === '/api/oauth/wechat')).toHaveLength(2);
  });

  it('asks to wait while the human check has not produced a token', async () => {
    const server = installFakeServer({
      'GET /api/status': () =>
        envelope({ setup: true, turnstile_check: true, turnstile_site_key: 'site-key' }),
    });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });

    await screen.findByTestId('turnstile');
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(
      await screen.findByText('Please retry in a few seconds, the human check is running!'),
    ).toBeTruthy();
    expect(loginCalls(server)).toHaveLength(0);
  });
});
