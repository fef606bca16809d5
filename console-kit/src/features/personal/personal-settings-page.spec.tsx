import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { PersonalSettingsPage } from './personal-settings-page';

vi.setConfig({ testTimeout: 30_000 });

const models = Array.from({ length: 12 }, (_, index) => `model-${String(index + 1).padStart(2, '0')}`);

const self = {
  id: 5,
  username: 'frank',
  display_name: 'Frank',
  role: 1,
  status: 1,
  group: 'vip',
  email: '',
  quota: 1_234_567,
  used_quota: 500_000,
  request_count: 42,
  aff_code: 'AFF5',
  aff_count: 2,
  aff_quota: 1_000_000,
  aff_history_quota: 1_000_000,
  github_id: '',
  setting: JSON.stringify({ notify_type: 'email', quota_warning_threshold: 500_000 }),
};

function serve(overrides: Record<string, (request: Request) => Response | Promise<Response>> = {}) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 5, username: 'frank', display_name: 'Frank', role: 1, status: 1, group: 'vip' }),
  );
  return installFakeServer({
    'GET /api/status': () => envelope({ setup: true, quota_per_unit: 500_000, display_in_currency: true }),
    'GET /api/user/self': () => envelope(self),
    'GET /api/user/models': () => envelope(models),
    ...overrides,
  });
}

describe('PersonalSettingsPage', () => {
  it('shows the profile in dollars, the invite link and the models collapsed after 10', async () => {
    serve();
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal' });

    expect((await screen.findByTestId('profile-balance')).textContent).toBe('$2.47');
    expect(screen.getByTestId('profile-used').textContent).toBe('$1.00');
    expect(screen.getByTestId('profile-requests').textContent).toBe('42');
    expect(screen.getByText('Ordinary user')).toBeTruthy();
    expect(screen.getByTestId<HTMLInputElement>('invite-link').value).toBe(
      `${window.location.origin}/register?aff=AFF5`,
    );
    expect(screen.getByTestId('aff-pending').textContent).toBe('$2.00');

    const list = await screen.findByTestId('available-models');
    await within(list).findByText('model-10');
    expect(within(list).getAllByRole('button')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Show more (2 more)' }));
    expect(within(list).getAllByRole('button')).toHaveLength(12);
    expect(window.localStorage.getItem('modelsExpanded')).toBe('true');
  });

  it('refuses a transfer below one unit with the spec message, then moves the earnings', async () => {
    const server = serve({ 'POST /api/user/aff_transfer': () => envelope(null) });
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal', language: 'zh' });

    await user.click(await screen.findByRole('button', { name: '划转到余额' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByLabelText('划转额度');
    await user.clear(amount);
    await user.type(amount, '1000');
    await user.click(within(dialog).getByRole('button', { name: '划转' }));
    expect(await within(dialog).findByText('划转金额最低为 $1.00')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === '/api/user/aff_transfer')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '600000');
    await user.click(within(dialog).getByRole('button', { name: '划转' }));
    expect(await screen.findByText('划转成功')).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/user/aff_transfer')?.body).toEqual({
      quota: 600_000,
    });
  });

  it('resets the access token and copies it to the clipboard', async () => {
    serve({ 'GET /api/user/token': () => envelope('fresh-access-token-0123456789') });
    // After setup(): user-event installs a clipboard of its own.
    const user = userEvent.setup();
    const writeText = vi.fn((_text: string) => Promise.resolve());
    Object.defineProperty(window.navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderInConsole(<PersonalSettingsPage />, { path: '/personal', language: 'zh' });

    await user.click(await screen.findByRole('tab', { name: '安全设置' }));
    await user.click(screen.getByRole('button', { name: '生成/重置访问令牌' }));

    expect(await screen.findByText('令牌已重置并已复制到剪贴板')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('fresh-access-token-0123456789');
    expect(screen.getByTestId<HTMLInputElement>('access-token').value).toBe('fresh-access-token-0123456789');
  });

  it('shows the token for copying by hand when the clipboard refuses', async () => {
    serve({ 'GET /api/user/token': () => envelope('manual-token-abc') });
    const user = userEvent.setup();
    Object.defineProperty(window.navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    document.execCommand = () => false;
    renderInConsole(<PersonalSettingsPage />, { path: '/personal', language: 'zh' });

    await user.click(await screen.findByRole('tab', { name: '安全设置' }));
    await user.click(screen.getByRole('button', { name: '生成/重置访问令牌' }));

    expect(await screen.findByText('无法复制到剪贴板，请手动复制')).toBeTruthy();
    const dialog = await screen.findByRole('dialog', { name: '请手动复制' });
    expect(within(dialog).getByRole<HTMLTextAreaElement>('textbox').value).toBe('manual-token-abc');
  });

  it('checks the password change and sends the original password', async () => {
    const server = serve({ 'PUT /api/user/self': () => envelope(null) });
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal', language: 'zh' });

    await user.click(await screen.findByRole('tab', { name: '安全设置' }));
    await user.click(screen.getByRole('button', { name: '修改密码' }));
    const dialog = await screen.findByRole('dialog', { name: '修改密码' });
    await user.type(within(dialog).getByLabelText('原密码'), 'old-password');
    await user.type(within(dialog).getByLabelText('新密码'), 'new-password-1');
    await user.type(within(dialog).getByLabelText('确认新密码'), 'new-password-2');
    await user.click(within(dialog).getByRole('button', { name: '修改' }));
    expect(await within(dialog).findByText('两次输入的密码不一致！')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('确认新密码'));
    await user.type(within(dialog).getByLabelText('确认新密码'), 'new-password-1');
    await user.click(within(dialog).getByRole('button', { name: '修改' }));
    expect(await screen.findByText('密码修改成功！')).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/user/self' && r.method === 'PUT')?.body).toEqual({
      password: 'new-password-1',
      original_password: 'old-password',
    });
  });

  it('deletes the account only with the exact username typed, then signs out', async () => {
    const server = serve({ 'DELETE /api/user/self': () => envelope(null) });
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal', language: 'zh' });

    await user.click(await screen.findByRole('tab', { name: '安全设置' }));
    await user.click(screen.getByRole('button', { name: '删除个人账户' }));
    const dialog = await screen.findByRole('dialog', { name: '删除账户' });
    await user.type(within(dialog).getByLabelText('账户名'), 'Frank');
    await user.click(within(dialog).getByRole('button', { name: '确认删除' }));
    expect(await within(dialog).findByText('请输入你的账户名以确认删除！')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('账户名'));
    await user.type(within(dialog).getByLabelText('账户名'), 'frank');
    await user.click(within(dialog).getByRole('button', { name: '确认删除' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/login');
    expect(server.requests.find((r) => r.method === 'DELETE')?.body).toEqual({ username: 'frank' });
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('saves notification settings and refuses a plain-http webhook before sending', async () => {
    const server = serve({ 'PUT /api/user/setting': () => envelope(null) });
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal' });

    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    expect(screen.getByLabelText<HTMLInputElement>('Quota warning threshold').value).toBe('500000');
    await user.click(screen.getByRole('button', { name: '1000000 ($2.00)' }));
    await user.click(screen.getByRole('radio', { name: 'Webhook' }));
    await user.type(screen.getByLabelText('Webhook URL'), 'http://hooks.example.com/x');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The webhook URL must start with https://')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === '/api/user/setting')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Webhook URL'));
    await user.type(screen.getByLabelText('Webhook URL'), 'https://hooks.example.com/x');
    await user.type(screen.getByLabelText('Webhook secret'), 'hook-secret');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Notification settings updated')).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/user/setting')?.body).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 1_000_000,
      webhook_url: 'https://hooks.example.com/x',
      webhook_secret: 'hook-secret',
      notification_email: '',
    });
  });

  it('binds an email address with a code', async () => {
    const server = serve({
      'GET /api/verification': () => envelope(null),
      'GET /api/oauth/email/bind': (request) =>
        new URL(request.url).searchParams.get('code') === '111222' ? envelope(null) : refusal('验证码错误'),
    });
    const user = userEvent.setup();
    renderInConsole(<PersonalSettingsPage />, { path: '/personal' });

    await user.click(await screen.findByRole('button', { name: 'Bind' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bind an email address' });
    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    expect(await within(dialog).findByText('Please enter the email address!')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('New email address'), 'frank@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Get code' }));
    expect(await within(dialog).findByRole('button', { name: /Resend/ })).toBeTruthy();
    const codeCall = server.requests.find((r) => r.path === '/api/verification');
    expect(new URL(codeCall!.request.url).searchParams.get('purpose')).toBe('bind');

    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    expect(await within(dialog).findByText('Please enter the email verification code!')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Verification code'), '111222');
    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    // The "code sent" toast is still up; the success follows it.
    expect(await screen.findByText('Email account bound successfully!', {}, { timeout: 6000 })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Bind an email address' })).toBeNull();
    expect(server.requests.filter((r) => r.path === '/api/oauth/email/bind')).toHaveLength(1);
  });
});
