import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { UsersPage } from './users-page';
import type { AdminUser } from './users-api';

function makeUser(id: number, fields: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    username: `user${id}`,
    display_name: `User ${id}`,
    role: 1,
    status: 1,
    email: '',
    group: 'default',
    quota: 500000,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    DeletedAt: null,
    aff_code: '',
    setting: '',
    created_at: 0,
    budget: null,
    ...fields,
  };
}

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: true };

function page(items: AdminUser[], total = items.length) {
  return envelope({ items, total, page: 1, page_size: 10 });
}

describe('UsersPage', { timeout: 20_000 }, () => {
  it('lists users with their role, status and quota, and marks deregistered rows', async () => {
    signInAs(100);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope(['default', 'vip']),
      'GET /api/user/': () =>
        page([
          makeUser(3, { role: 10, quota: 1_000_000 }),
          makeUser(2, { status: 2 }),
          makeUser(4, { DeletedAt: '2024-05-01T00:00:00.000Z' }),
        ]),
    });
    renderInConsole(<UsersPage />, { path: '/user' });

    const admin = await screen.findByTestId('user-row-3');
    expect(within(admin).getByText('Admin')).toBeTruthy();
    expect(within(admin).getByText('Remaining: $2.00')).toBeTruthy();
    expect(within(admin).getByRole('button', { name: 'Demote' })).toBeTruthy();
    expect(within(screen.getByTestId('user-row-2')).getByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(screen.getByTestId('user-row-2')).getByText('Banned')).toBeTruthy();

    const gone = screen.getByTestId('user-row-4');
    expect(gone.getAttribute('data-deregistered')).toBe('true');
    expect(within(gone).getByText('Deregistered')).toBeTruthy();
    expect(within(gone).queryAllByRole('button')).toHaveLength(0);
  });

  it('hides actions on peers from an admin and keeps promote for root', async () => {
    signInAs(10);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope(['default']),
      'GET /api/user/': () => page([makeUser(5, { role: 10 }), makeUser(6)]),
    });
    renderInConsole(<UsersPage />, { path: '/user', language: 'zh' });

    const peer = await screen.findByTestId('user-row-5');
    expect(within(peer).queryAllByRole('button')).toHaveLength(0);
    expect(within(peer).getByText('无权操作')).toBeTruthy();
    const lower = screen.getByTestId('user-row-6');
    expect(within(lower).queryByRole('button', { name: '提升' })).toBeNull();
    expect(within(lower).getByRole('button', { name: '禁用' })).toBeTruthy();
  });

  it('remembers the page size under page-size and asks the server for that many', async () => {
    signInAs(100);
    window.localStorage.setItem('page-size', '20');
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope([]),
      'GET /api/user/': () => page([makeUser(1)], 45),
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user' });

    await screen.findByTestId('user-row-1');
    const first = server.requests.find((request) => request.path === '/api/user/');
    expect(new URL(first!.request.url).searchParams.get('page_size')).toBe('20');

    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await user.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() =>
      expect(
        server.requests.some(
          (request) => new URL(request.request.url).searchParams.get('page_size') === '50',
        ),
      ).toBe(true),
    );
    expect(window.localStorage.getItem('page-size')).toBe('50');
  });

  it('searches by keyword and group through the search endpoint', async () => {
    signInAs(100);
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope(['default', 'vip']),
      'GET /api/user/': () => page([makeUser(1)]),
      'GET /api/user/search': () => page([makeUser(9, { group: 'vip' })]),
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user' });
    await screen.findByTestId('user-row-1');

    await user.type(screen.getByLabelText('Keyword'), 'alice');
    await user.click(screen.getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'vip' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));

    await screen.findByTestId('user-row-9');
    const search = server.requests.find((request) => request.path === '/api/user/search');
    const params = new URL(search!.request.url).searchParams;
    expect(params.get('keyword')).toBe('alice');
    expect(params.get('group')).toBe('vip');
    expect(params.get('p')).toBe('1');
  });

  it('asks before promoting, then shows the server refusal as given', async () => {
    signInAs(100);
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope([]),
      'GET /api/user/': () => page([makeUser(7)]),
      'POST /api/user/manage': () => refusal('无权进行此操作'),
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user' });

    await user.click(
      within(await screen.findByTestId('user-row-7')).getByRole('button', { name: 'Promote' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Promote user7 to admin?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.click(within(screen.getByTestId('user-row-7')).getByRole('button', { name: 'Promote' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('无权进行此操作')).toBeTruthy();
    expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({
      id: 7,
      action: 'promote',
    });
  });

  it('disables without asking and refreshes the row from the server', async () => {
    signInAs(100);
    let current = makeUser(8);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope([]),
      'GET /api/user/': () => page([current]),
      'POST /api/user/manage': () => {
        current = { ...current, status: 2 };
        return envelope({ status: 2, role: 1 });
      },
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user' });

    await user.click(
      within(await screen.findByTestId('user-row-8')).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Operation completed successfully!')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('user-row-8')).getByText('Banned')).toBeTruthy());
  });

  it('refuses an empty add-user form with the spec message and sends nothing', async () => {
    signInAs(100);
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope([]),
      'GET /api/user/': () => page([]),
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user', language: 'zh' });

    await user.click(await screen.findByRole('button', { name: '添加用户' }));
    await user.type(await screen.findByLabelText(/用户名/), 'newbie');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户名和密码不能为空！')).toBeTruthy();
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('edit drawer: add-quota dialog shows old, delta and new, and the save sends the loaded balance', async () => {
    signInAs(100);
    let balance = 500000;
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope(['default', 'vip']),
      'GET /api/user/': () => page([makeUser(11, { quota: balance })]),
      'GET /api/user/11': () => envelope(makeUser(11, { quota: balance, github_id: 'gh-42' })),
      'POST /api/user/manage': () => {
        balance -= 100000;
        return envelope({ status: 1, role: 1, quota: balance });
      },
      'PUT /api/user/': () => envelope(makeUser(11)),
    });
    const user = userEvent.setup();
    renderInConsole(<UsersPage />, { path: '/user' });

    await user.click(within(await screen.findByTestId('user-row-11')).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('gh-42')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add quota' }));
    const dialog = await screen.findByRole('dialog');
    const amountField = within(dialog).getByLabelText('Quota to add (may be negative)');
    // More than the balance: the preview shows the true result and Confirm stays off, as the server refuses.
    await user.type(amountField, '-99999999');
    expect(within(dialog).getByTestId('quota-new').textContent).toBe('-$199.00 (-99499999)');
    expect(within(dialog).getByTestId('quota-below-zero').textContent).toContain('cannot go below zero');
    expect(within(dialog).getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(true);
    await user.clear(amountField);
    await user.type(amountField, '-100000');
    expect(within(dialog).queryByTestId('quota-below-zero')).toBeNull();
    expect(within(dialog).getByTestId('quota-old').textContent).toBe('$1.00 (500000)');
    expect(within(dialog).getByTestId('quota-delta').textContent).toBe('-$0.20 (-100000)');
    expect(within(dialog).getByTestId('quota-new').textContent).toBe('$0.80 (400000)');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByText('Quota to add (may be negative)')).toBeNull());

    const quotaField = screen.getByLabelText('Remaining quota');
    expect((quotaField as HTMLInputElement).value).toBe('400000');
    await user.clear(quotaField);
    await user.type(quotaField, '450000');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(server.requests.some((request) => request.method === 'PUT')).toBe(true));
    expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({
      id: 11,
      action: 'add_quota',
      value: -100000,
    });
    expect(server.requests.find((request) => request.method === 'PUT')?.body).toEqual({
      id: 11,
      username: 'user11',
      display_name: 'User 11',
      password: '',
      group: 'default',
      quota: 450000,
      original_quota: 400000,
    });
  });

  it('opens the edit drawer of the user named by /user/edit/:id', async () => {
    signInAs(100);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/group/': () => envelope(['default', 'vip']),
      'GET /api/user/': () => page([makeUser(11)]),
      'GET /api/user/11': () => envelope(makeUser(11, { github_id: 'gh-deep' })),
    });
    renderInConsole(<UsersPage />, { path: '/user/edit/11', route: '/user/edit/:id' });
    expect(await screen.findByText('gh-deep')).toBeTruthy();
  });

  it('tells an ordinary user the page is for admins', async () => {
    signInAs(1);
    installFakeServer({});
    renderInConsole(<UsersPage />, { path: '/user' });
    expect(await screen.findByText('Only administrators can manage users')).toBeTruthy();
  });
});
