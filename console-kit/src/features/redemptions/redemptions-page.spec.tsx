import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
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
    user_id: 1,
    redeemed_time: 0,
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
        list([
          code(1),
          code(2, { status: 2, expired_time: dayjs('2031-05-06T07:08:09').unix() }),
          code(3, { status: 3, used_user_id: 42 }),
        ]),
    });
    renderInConsole(<RedemptionsPage />, { path: '/redemption' });
    const unused = await screen.findByTestId('redemption-row-1');
    expect(within(unused).getByText('$0.20')).toBeTruthy();
    expect(within(unused).getByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(within(unused).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(unused).getByTestId('redemption-expires').textContent).toBe('Never');
    const disabled = screen.getByTestId('redemption-row-2');
    expect(within(disabled).getByTestId('redemption-expires').textContent).toBe('2031-05-06 07:08:09');
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
        expired_time: 0,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Copy all' }));
    expect(await navigator.clipboard.readText()).toBe(`${'c'.repeat(32)}\n${'d'.repeat(32)}`);
  });

  it('creates codes with an expiry from a preset and edits a code keeping its expiry', async () => {
    signInAs(10);
    const stored = dayjs().add(3, 'day').startOf('second');
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/redemption/': () => list([code(5, { expired_time: stored.unix() })]),
      'GET /api/redemption/5': () => envelope(code(5, { expired_time: stored.unix() })),
      'POST /api/redemption/': () => envelope(['e'.repeat(32)]),
      'PUT /api/redemption/': () => envelope(code(5)),
    });
    const user = userEvent.setup();
    renderInConsole(<RedemptionsPage />, { path: '/redemption' });
    await user.click(await screen.findByRole('button', { name: 'Add codes' }));
    await user.click(await screen.findByRole('button', { name: 'One day' }));
    const before = Math.floor(Date.now() / 1000);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByTestId('created-codes');
    const body = server.requests.find((request) => request.method === 'POST')?.body as {
      expired_time: number;
    };
    // One day ahead, to the second (the preset is taken a moment before the submit).
    expect(Math.abs(body.expired_time - (before + 86_400))).toBeLessThanOrEqual(5);
    await user.click(screen.getByRole('button', { name: 'Close' }));

    const row = await screen.findByTestId('redemption-row-5');
    expect(within(row).getByTestId('redemption-expires').textContent).toBe(
      stored.format('YYYY-MM-DD HH:mm:ss'),
    );
    // The closing dialog hides the page from the accessibility tree until it is gone.
    await user.click(await within(row).findByRole('button', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Update redemption code' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(server.requests.find((request) => request.method === 'PUT')?.body).toEqual({
        id: 5,
        name: 'code5',
        quota: 100000,
        expired_time: stored.unix(),
      }),
    );
  });
});
