import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { TokensPage } from './tokens-page';
import type { Token } from '../../lib/tokens-api';

function makeToken(id: number, fields: Partial<Token> = {}): Token {
  return {
    id,
    name: `token${id}`,
    key: 'abcd**********wxyz',
    status: 1,
    created_time: 1_700_000_000,
    expired_time: -1,
    remain_quota: 1_000_000,
    used_quota: 500_000,
    unlimited_quota: false,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    group: '',
    user_id: 7,
    accessed_time: 0,
    rpm_limit: 0,
    tpm_limit: 0,
    concurrency_limit: 0,
    budget: null,
    ...fields,
  };
}

function signIn() {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 7, username: 'me', display_name: 'me', role: 1, status: 1, group: 'default' }),
  );
}

const status = {
  setup: true,
  quota_per_unit: 500000,
  display_in_currency: true,
  server_address: 'https://gw.example',
  chats: [{ NextChat: 'https://next.example/?key={key}&url={address}' }, { Bad: 'javascript:alert({key})' }],
};

const list = (items: Token[]) => envelope({ items, total: items.length, page: 1, page_size: 10 });

describe('TokensPage', { timeout: 20_000 }, () => {
  it('shows the banner, statuses and quotas, and chat links only on enabled tokens', async () => {
    signIn();
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () =>
        list([
          makeToken(1),
          makeToken(2, { status: 2 }),
          makeToken(3, { model_limits_enabled: true, model_limits: 'gpt-4o' }),
          makeToken(4, { status: 4, unlimited_quota: true }),
        ]),
    });
    renderInConsole(<TokensPage />, { path: '/token' });

    expect(await screen.findByText(/Tokens cannot strictly limit usage/)).toBeTruthy();
    const enabled = await screen.findByTestId('token-row-1');
    expect(within(enabled).getByText('Enabled')).toBeTruthy();
    expect(within(enabled).getByText('$2.00')).toBeTruthy();
    expect(within(enabled).getByText('sk-abcd**********wxyz')).toBeTruthy();
    expect(within(enabled).getByRole('button', { name: 'NextChat' })).toBeTruthy();
    expect(within(screen.getByTestId('token-row-2')).getByText('Disabled')).toBeTruthy();
    expect(within(screen.getByTestId('token-row-2')).queryByRole('button', { name: 'NextChat' })).toBeNull();
    expect(within(screen.getByTestId('token-row-2')).getByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(screen.getByTestId('token-row-3')).getByText('Limited models')).toBeTruthy();
    const exhausted = screen.getByTestId('token-row-4');
    expect(within(exhausted).getByText('Exhausted')).toBeTruthy();
    expect(within(exhausted).getByText('Unlimited')).toBeTruthy();
    expect(within(exhausted).queryByRole('button', { name: 'NextChat' })).toBeNull();
  });

  it('copies the full key fetched from the server, and opens a chat link filled with it', async () => {
    signIn();
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () => list([makeToken(1)]),
      'POST /api/token/1/key': () => envelope({ key: 'sk-FULLKEY123' }),
    });
    // user-event puts its own clipboard on navigator; watch that one.
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderInConsole(<TokensPage />, { path: '/token' });
    const row = await screen.findByTestId('token-row-1');

    await user.click(within(row).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('sk-FULLKEY123'));
    expect(server.requests.filter((request) => request.path === '/api/token/1/key')).toHaveLength(1);

    expect(await navigator.clipboard.readText()).toBe('sk-FULLKEY123');
    await user.click(within(row).getByRole('button', { name: 'NextChat' }));
    await waitFor(() =>
      expect(tab.location.href).toBe('https://next.example/?key=sk-FULLKEY123&url=https%3A%2F%2Fgw.example'),
    );
    expect(tab.opener).toBeNull();
    expect(open).toHaveBeenCalledWith('', '_blank');

    // A template that is not http(s) is never opened: the spec's config error instead.
    tab.location.href = '';
    await user.click(within(row).getByRole('button', { name: 'Bad' }));
    await waitFor(() => expect(tab.close).toHaveBeenCalled());
    const copied = await screen.findByText('Copied to clipboard!');
    await user.click(
      within(copied.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Close' }),
    );
    expect(await screen.findByText('Chat link config error, please contact the admin')).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('');
  });

  it('opens desktop-app chat links and fills {cherryConfig}', async () => {
    signIn();
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    installFakeServer({
      'GET /api/status': () =>
        envelope({
          ...status,
          chats: [
            { Cherry: 'cherrystudio://providers/api-keys?v=1&data={cherryConfig}' },
            { OpenCat: 'opencat://team/join?domain={address}&token={key}' },
          ],
        }),
      'GET /api/token/': () => list([makeToken(1)]),
      'POST /api/token/1/key': () => envelope({ key: 'sk-FULL' }),
    });
    const user = userEvent.setup();
    renderInConsole(<TokensPage />, { path: '/token' });
    const row = await screen.findByTestId('token-row-1');
    await user.click(within(row).getByRole('button', { name: 'OpenCat' }));
    await waitFor(() =>
      expect(tab.location.href).toBe('opencat://team/join?domain=https%3A%2F%2Fgw.example&token=sk-FULL'),
    );
    await user.click(within(row).getByRole('button', { name: 'Cherry' }));
    await waitFor(() => expect(tab.location.href.startsWith('cherrystudio://')).toBe(true));
    const data = new URL(tab.location.href).searchParams.get('data')!;
    expect(JSON.parse(atob(data))).toEqual({
      id: 'gatehouse',
      baseUrl: 'https://gw.example',
      apiKey: 'sk-FULL',
    });
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('shows cards instead of the table on phones, with selection for batch delete', async () => {
    signIn();
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({
        matches: query.includes('max-width:600px'),
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(),
      })),
    );
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () => list([makeToken(1), makeToken(2, { status: 2, unlimited_quota: true })]),
      'POST /api/token/batch': () => envelope(1),
    });
    const user = userEvent.setup();
    try {
      renderInConsole(<TokensPage />, { path: '/token' });
      const card = await screen.findByTestId('token-card-1');
      expect(screen.queryByRole('table')).toBeNull();
      expect(within(card).getByText('sk-abcd**********wxyz')).toBeTruthy();
      expect(within(card).getByTestId('token-remain').textContent).toBe('$2.00');
      expect(within(card).getByRole('button', { name: 'NextChat' })).toBeTruthy();
      const other = screen.getByTestId('token-card-2');
      expect(within(other).getByTestId('token-remain').textContent).toBe('Unlimited');
      expect(within(other).getByRole('button', { name: 'Enable' })).toBeTruthy();
      await user.click(within(other).getByRole('checkbox', { name: 'Select token2' }));
      await user.click(screen.getByRole('button', { name: 'Delete selected' }));
      const dialog = await screen.findByRole('dialog');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      await waitFor(() =>
        expect(server.requests.find((request) => request.path === '/api/token/batch')?.body).toEqual({
          ids: [2],
        }),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('disables with a status-only update and shows the server refusal on enable', async () => {
    signIn();
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/token/': () => list([makeToken(1), makeToken(2, { status: 2 })]),
      'PUT /api/token/': (request) =>
        new URL(request.url).searchParams.get('status_only') === 'true'
          ? request
              .clone()
              .json()
              .then((body: { status: number }) =>
                body.status === 1
                  ? refusal('Token expired, cannot be enabled')
                  : envelope(makeToken(1, { status: 2 })),
              )
          : refusal('unexpected'),
    });
    const user = userEvent.setup();
    renderInConsole(<TokensPage />, { path: '/token' });

    await user.click(
      within(await screen.findByTestId('token-row-1')).getByRole('button', { name: 'Disable' }),
    );
    await waitFor(() =>
      expect(
        server.requests.some(
          (request) => request.method === 'PUT' && (request.body as { status: number }).status === 2,
        ),
      ).toBe(true),
    );
    const put = server.requests.find((request) => request.method === 'PUT');
    expect(put?.body).toEqual({ id: 1, status: 2 });
    // Notifications queue: close this one so the next shows at once.
    const done = await screen.findByText('Done!');
    await user.click(
      within(done.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Close' }),
    );

    await user.click(within(screen.getByTestId('token-row-2')).getByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('Token expired, cannot be enabled')).toBeTruthy();
  });

  it('creates tokens from the drawer and refuses a bad count without calling the server', async () => {
    signIn();
    const server = installFakeServer({
      'GET /api/status': () => envelope({ ...status, default_use_auto_group: true }),
      'GET /api/token/': () => list([]),
      'GET /api/user/self/groups': () =>
        envelope({ default: { desc: 'Default', ratio: 1 }, auto: { desc: 'Auto', ratio: null } }),
      'GET /api/user/models': () => envelope(['gpt-4o', 'gpt-4o-mini']),
      'POST /api/token/': () => envelope([makeToken(5), makeToken(6)]),
    });
    const user = userEvent.setup();
    renderInConsole(<TokensPage />, { path: '/token' });
    await user.click(await screen.findByRole('button', { name: 'Add token' }));
    const name = await screen.findByLabelText('Name');
    await user.type(name, 'team');
    await user.click(screen.getByRole('button', { name: '$50.00' }));
    const count = screen.getByLabelText('How many');
    await user.clear(count);
    await user.type(count, '0');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The count must be a whole number from 1 to 100')).toBeTruthy();
    expect(server.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: '20' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(server.requests.some((request) => request.method === 'POST')).toBe(true));
    expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'team',
      remain_quota: 25_000_000,
      expired_time: -1,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: 'auto',
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      count: 20,
    });
  });
});
