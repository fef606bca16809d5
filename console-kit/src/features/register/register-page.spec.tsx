import { describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { RegisterPage } from './register-page';

vi.setConfig({ testTimeout: 20_000 });

describe('RegisterPage', () => {
  it('checks the form in the spec order before calling the server', async () => {
    const server = installFakeServer({ 'GET /api/status': () => envelope({ setup: true }) });
    const user = userEvent.setup();
    renderInConsole(<RegisterPage />, { path: '/register', language: 'zh' });

    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('用户名和密码不能为空！')).toBeTruthy();

    await user.type(screen.getByLabelText('用户名'), 'dave');
    await user.type(screen.getByLabelText('密码'), 'short');
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('密码长度不得小于 8 位！')).toBeTruthy();

    await user.type(screen.getByLabelText('密码'), '-but-fine');
    await user.type(screen.getByLabelText('确认密码'), 'different1');
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(server.requests.filter((request) => request.path === '/api/user/register')).toHaveLength(0);
  });

  it('sends the email code, waits 30 s before another, and registers with the invite code', async () => {
    const server = installFakeServer({
      'GET /api/status': () => envelope({ setup: true, email_verification: true }),
      'GET /api/verification': () => envelope(null),
      'POST /api/user/register': () => envelope(null),
    });
    const user = userEvent.setup();
    renderInConsole(<RegisterPage />, { path: '/register?aff=INV7', route: '/register' });

    const email = await screen.findByLabelText('Email address');
    await user.type(screen.getByLabelText('Username'), 'erin');
    await user.type(screen.getByLabelText('Password'), 'erin-pass-1');
    await user.type(screen.getByLabelText('Confirm password'), 'erin-pass-1');
    await user.type(email, 'erin@example.com');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await user.click(screen.getByRole('button', { name: 'Get code' }));
      const resend = await screen.findByRole('button', { name: /Resend \(30\)/ });
      expect(resend.hasAttribute('disabled')).toBe(true);
      const sent = server.requests.filter((request) => request.path === '/api/verification');
      expect(sent).toHaveLength(1);
      expect(new URL(sent[0].request.url).searchParams.get('email')).toBe('erin@example.com');

      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      expect(screen.getByRole('button', { name: 'Get code' }).hasAttribute('disabled')).toBe(false);
    } finally {
      vi.useRealTimers();
    }

    await user.type(screen.getByLabelText('Email verification code'), '654321');
    expect(screen.getByText('Invite code: INV7')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/login');
    expect(server.requests.find((request) => request.path === '/api/user/register')?.body).toEqual({
      username: 'erin',
      password: 'erin-pass-1',
      password2: 'erin-pass-1',
      email: 'erin@example.com',
      verification_code: '654321',
      aff_code: 'INV7',
    });
    expect(window.localStorage.getItem('aff')).toBeNull();
  });

  it('shows the server refusal and stays', async () => {
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true }),
      'POST /api/user/register': () => refusal('用户名已被占用'),
    });
    const user = userEvent.setup();
    renderInConsole(<RegisterPage />, { path: '/register' });

    await user.type(screen.getByLabelText('Username'), 'taken');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('用户名已被占用')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('says so when the administrator closed registration', async () => {
    installFakeServer({ 'GET /api/status': () => envelope({ setup: true, register_enabled: false }) });
    renderInConsole(<RegisterPage />, { path: '/register' });
    expect(await screen.findByText('The administrator has closed registration')).toBeTruthy();
    expect(screen.queryByLabelText('Username')).toBeNull();
  });
});
