import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { RedemptionsPage } from './redemptions-page';
import type { Redemption } from './redemptions-api';

function signInAs(role: number) {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 1, username: 'me', display_name: 'me', role, status: 1, group: 'default' }),
  );
}

function code(id: number, fields: Partial<Redemption> = {}): Redemption {
  return {
    id,
    key: `${id}`.padStart(32, 'a'),
    status: 1,
    name: `code${id}`,
    quota: 100000,
    created_time: 1_700_000_000,
    used_user_id: 0,
    expired_time: 0,
    ...fields,
  };
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: true };
const list = (items: Redemption[]) => envelope({ items, total: items.length, page: 1, page_size: 10 });

describe('RedemptionsPage', { timeout: 20_000 }, () => {
  it('is for admins only', async () => {
    signInAs(1);
    const server = installFakeServer({ 'GET /api/status': () => envelope(status) });
    renderInConsole(<RedemptionsPage />, { path: '/redemption' });
    expect(await screen.findByText('Only admins can manage redemption codes')).toBeTruthy();
    expect(server.requests.some((request) => request.path.startsWith('/api/redemption'))).toBe(false);
  });

  it('lists codes with the actions their status allows', async () => {
    signInAs(10);
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/redemption/': () =>
        list([code(1), code(2, { status: 2 }), code(3, { status: 3, used_user_id: 42 })]),
    });
    renderInConsole(<RedemptionsPage />, { path: '/redemption' });
    const unused = await screen.findByTestId('redemption-row-1');
    expect(within(unused).getByText('$0.20')).toBeTruthy();
    expect(within(unused).getByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(within(unused).getByRole('button', { name: 'Edit' })).toBeTruthy();
    const disabled = screen.getByTestId('redemption-row-2');
    expect(within(disabled).getByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(disabled).queryByRole('button', { name: 'Edit' })).toBeNull();
    const used = screen.getByTestId('redemption-row-3');
    expect(within(used).getByText('Used')).toBeTruthy();
    expect(within(used).getByText('42')).toBeTruthy();
    expect(within(used).queryByRole('button', { name: 'Enable' })).toBeNull();
    expect(within(used).queryByRole('button', { name: 'Disable' })).toBeNull();
  });

  it('creates codes and shows them with a copy-all button', async () => {
    signInAs(100);
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/redemption/': () => list([]),
      'POST /api/redemption/': () => envelope(['c'.repeat(32), 'd'.repeat(32)]),
    });
    const user = userEvent.setup();
    renderInConsole(<RedemptionsPage />, { path: '/redemption' });
    await user.click(await screen.findByRole('button', { name: 'Add codes' }));
    const count = await screen.findByLabelText('How many');
    await user.clear(count);
    await user.type(count, '2');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const shown = await screen.findByTestId('created-codes');
    expect(shown.textContent).toBe(`${'c'.repeat(32)}\n${'d'.repeat(32)}`);
    await waitFor(() =>
      expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({
        name: '',
        quota: 100000,
        count: 2,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Copy all' }));
    expect(await navigator.clipboard.readText()).toBe(`${'c'.repeat(32)}\n${'d'.repeat(32)}`);
  });
});
