import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { LoginPage } from './login-page';

const alice = { id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

describe('LoginPage', () => {
  it('asks for both fields before calling the server', async () => {
    const server = installFakeServer({});
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login', language: 'zh' });

    await user.type(screen.getByLabelText('用户名/邮箱'), 'alice');
    await user.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('请输入用户名和密码！')).toBeTruthy();
    expect(server.requests).toHaveLength(0);
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
    expect(server.requests[0]?.body).toEqual({ username: 'alice@example.com', password: 'correct-horse' });
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

  it('explains why the user is here after a session expired', async () => {
    installFakeServer({});
    renderInConsole(<LoginPage />, { path: '/login?expired=true', route: '/login' });

    expect(await screen.findByText('Not logged in or session expired. Please login again!')).toBeTruthy();
  });
});
