import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { selfUserOf } from '../../test/wire-fixtures';
import { BindingsPanel } from './bindings-panel';

vi.setConfig({ testTimeout: 20_000 });

const self = selfUserOf({
  id: 3,
  username: 'dana',
  display_name: 'Dana',
  role: 1,
  status: 1,
  group: 'default',
  email: '',
  github_id: '',
  oidc_id: '',
  telegram_id: '',
});

const status = {
  setup: true,
  github_oauth: true,
  github_client_id: 'gh-client',
  oidc_enabled: true,
  oidc_client_id: 'oidc-client',
  telegram_oauth: true,
  telegram_bot_name: 'gatehouse_bot',
};

describe('BindingsPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts a GitHub bind at the state endpoint and follows the address the server built', async () => {
    window.localStorage.setItem('user', JSON.stringify(self));
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: window.location.origin });
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/oauth/state': () =>
        envelope({ state: 's'.repeat(43), authorize_url: 'https://github.example/authorize?state=sss' }),
    });
    renderInConsole(<BindingsPanel self={self} />, { path: '/personal' });
    const row = (await screen.findByText('GitHub')).parentElement as HTMLElement;
    await userEvent.click(await within(row).findByRole('button', { name: 'Bind' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://github.example/authorize?state=sss'));
    const call = server.requests.find((request) => request.path === '/api/oauth/state');
    expect(new URL(call?.request.url ?? '').searchParams.get('provider')).toBe('github');
    expect(call?.request.headers.get('New-Api-User')).toBe('3');
  });

  it('refuses to leave for an address that is not http(s)', async () => {
    window.localStorage.setItem('user', JSON.stringify(self));
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: window.location.origin });
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/oauth/state': () => envelope({ state: 's'.repeat(43), authorize_url: 'javascript:alert(1)' }),
    });
    renderInConsole(<BindingsPanel self={self} />, { path: '/personal' });
    const row = (await screen.findByText('OIDC')).parentElement as HTMLElement;
    await userEvent.click(await within(row).findByRole('button', { name: 'Bind' }));
    expect((await screen.findAllByText('Request failed')).length).toBeGreaterThan(0);
    expect(assign).not.toHaveBeenCalled();
  });

  it("binds Telegram through the API client from the widget's callback", async () => {
    window.localStorage.setItem('user', JSON.stringify(self));
    let answer = () => jsonResponse({ success: true, message: 'bind', data: null });
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/oauth/telegram/bind': () => answer(),
    });
    renderInConsole(<BindingsPanel self={self} />, { path: '/personal' });
    const widget = await screen.findByTestId('telegram-login');
    const script = await waitFor(() => {
      const found = widget.querySelector('script');
      expect(found).not.toBeNull();
      return found as HTMLScriptElement;
    });
    expect(script.getAttribute('data-auth-url')).toBeNull();
    const callback = /^(\w+)\(user\)$/.exec(script.getAttribute('data-onauth') ?? '')?.[1] ?? '';
    const handler = (window as unknown as Record<string, (data: Record<string, unknown>) => void>)[callback];
    const fields = { id: 777, first_name: 'Tele', username: 'tg777', auth_date: 1700000000, hash: 'abc' };
    handler(fields);
    expect((await screen.findAllByText('Binding successful!')).length).toBeGreaterThan(0);
    const call = server.requests.find((request) => request.path === '/api/oauth/telegram/bind');
    expect(Object.fromEntries(new URL(call?.request.url ?? '').searchParams)).toEqual({
      id: '777',
      first_name: 'Tele',
      username: 'tg777',
      auth_date: '1700000000',
      hash: 'abc',
    });
    expect(call?.request.headers.get('New-Api-User')).toBe('3');

    answer = () => refusal('该 Telegram 账户已被其他用户绑定');
    handler({ ...fields, hash: 'def' });
    await waitFor(() =>
      expect(server.requests.filter((request) => request.path === '/api/oauth/telegram/bind')).toHaveLength(
        2,
      ),
    );
    // The snackbar shows one message at a time: the refusal follows the success message.
    expect(
      (await screen.findAllByText('该 Telegram 账户已被其他用户绑定', {}, { timeout: 10_000 })).length,
    ).toBeGreaterThan(0);
  });
});
