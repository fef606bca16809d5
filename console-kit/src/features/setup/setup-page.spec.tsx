import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { SetupPage } from './setup-page';

const freshInstall = { status: false, root_init: false, database_type: 'sqlite' };

describe('SetupPage', () => {
  it('warns about SQLite and shows the admin account fields on a fresh install', async () => {
    installFakeServer({ 'GET /api/setup': () => envelope(freshInstall) });
    renderInConsole(<SetupPage onInitialized={vi.fn()} />, { path: '/setup' });

    expect(await screen.findByText(/You are using a SQLite database/)).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByLabelText('Confirm password')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'External operation' })).toHaveProperty('checked', true);
  });

  it('shows each validation message in turn and sends nothing until the form is valid', async () => {
    const server = installFakeServer({ 'GET /api/setup': () => envelope(freshInstall) });
    const user = userEvent.setup();
    renderInConsole(<SetupPage onInitialized={vi.fn()} />, { path: '/setup' });
    const submit = await screen.findByRole('button', { name: 'Initialize system' });

    await user.click(submit);
    // Every problem at once, each on its field.
    expect(await screen.findByText('Please enter the admin username')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeTruthy();

    await user.type(screen.getByLabelText('Username'), 'thirteen-char');
    await user.click(submit);
    expect(await screen.findByText('The username may have at most 12 characters')).toBeTruthy();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(submit);
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeTruthy();

    await user.type(screen.getByLabelText('Password'), '-but-now-long');
    await user.type(screen.getByLabelText('Confirm password'), 'something else');
    await user.click(submit);
    expect(await screen.findByText('The two passwords entered do not match')).toBeTruthy();

    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('speaks Chinese when the console language is zh', async () => {
    installFakeServer({ 'GET /api/setup': () => envelope(freshInstall) });
    const user = userEvent.setup();
    renderInConsole(<SetupPage onInitialized={vi.fn()} />, { path: '/setup', language: 'zh' });

    await user.click(await screen.findByRole('button', { name: '初始化系统' }));

    expect(await screen.findByText('请输入管理员用户名')).toBeTruthy();
  });

  it('posts the account and mode, reports success and reloads after 1.5 s', async () => {
    const server = installFakeServer({
      'GET /api/setup': () => envelope(freshInstall),
      'POST /api/setup': () => envelope(null, 'ok'),
    });
    const onInitialized = vi.fn();
    const user = userEvent.setup();
    renderInConsole(<SetupPage onInitialized={onInitialized} />, { path: '/setup' });

    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.type(screen.getByLabelText('Confirm password'), 'correct-horse');
    await user.click(screen.getByRole('radio', { name: 'Self-use' }));
    const startedAt = Date.now();
    await user.click(screen.getByRole('button', { name: 'Initialize system' }));

    expect(await screen.findAllByText('System initialized successfully, redirecting…')).not.toHaveLength(0);
    expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({
      username: 'admin',
      password: 'correct-horse',
      confirmPassword: 'correct-horse',
      SelfUseModeEnabled: true,
      DemoSiteEnabled: false,
    });
    expect(onInitialized).not.toHaveBeenCalled();
    await waitFor(() => expect(onInitialized).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1400);
  });

  it('shows only the mode choice once root exists, and the server reason when it refuses', async () => {
    const server = installFakeServer({
      'GET /api/setup': () => envelope({ status: false, root_init: true, database_type: 'mysql' }),
      'POST /api/setup': () => refusal('系统已经初始化完成'),
    });
    const user = userEvent.setup();
    renderInConsole(<SetupPage onInitialized={vi.fn()} />, { path: '/setup' });

    expect(await screen.findByText(/administrator account is already initialized/)).toBeTruthy();
    expect(screen.queryByLabelText('Username')).toBeNull();
    expect(screen.queryByText(/SQLite/)).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Demo site' }));
    await user.click(screen.getByRole('button', { name: 'Initialize system' }));

    expect(await screen.findByText('系统已经初始化完成')).toBeTruthy();
    expect(server.requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      username: '',
      SelfUseModeEnabled: false,
      DemoSiteEnabled: true,
    });
  });

  it('leaves for the home page when setup is already done', async () => {
    installFakeServer({
      'GET /api/setup': () => envelope({ status: true, root_init: true, database_type: 'sqlite' }),
    });
    renderInConsole(<SetupPage onInitialized={vi.fn()} />, { path: '/setup' });

    expect((await screen.findByTestId('location')).textContent).toBe('/');
  });
});
