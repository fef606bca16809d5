import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envelope, installFakeServer, jsonResponse, refusal } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { WalletPage } from './wallet-page';

function signIn() {
  window.localStorage.setItem(
    'user',
    JSON.stringify({ id: 7, username: 'me', display_name: 'me', role: 1, status: 1, group: 'default' }),
  );
}

const status = { setup: true, quota_per_unit: 500000, display_in_currency: true };
const info = {
  enable_online_topup: true,
  pay_methods: [{ name: 'Alipay', type: 'alipay', color: '#1677ff' }],
  min_topup: 2,
  price: 7.3,
  topup_group_ratio: 1,
  quota_per_unit: 500000,
  display_in_currency: true,
  usd_exchange_rate: 7.3,
  topup_link: '',
};
const noOrders = () => envelope({ items: [], total: 0, page: 1, page_size: 10 });

describe('WalletPage', { timeout: 20_000 }, () => {
  it('redeems a code and shows the credited quota; an empty code asks for one', async () => {
    signIn();
    let quota = 1_000_000;
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/user/self': () =>
        envelope({ id: 7, username: 'me', role: 1, status: 1, quota, used_quota: 0 }),
      'GET /api/user/topup/info': () => envelope(info),
      'GET /api/user/topup/self': noOrders,
      'POST /api/user/amount': () => jsonResponse({ success: true, message: 'success', data: '14.60' }),
      'POST /api/user/topup': (request) =>
        request
          .clone()
          .json()
          .then((body: { key: string }) => {
            if (body.key !== 'good-code') return refusal('Invalid redemption code');
            quota += 500_000;
            return envelope(500_000);
          }),
    });
    const user = userEvent.setup();
    renderInConsole(<WalletPage />, { path: '/topup' });
    expect(await screen.findByText('Current balance: $2.00')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('Please enter a redemption code!')).toBeTruthy();
    expect(server.requests.some((request) => request.path === '/api/user/topup')).toBe(false);

    await user.type(screen.getByLabelText('Redemption code'), 'good-code');
    await user.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('Current balance: $3.00')).toBeTruthy();
    expect(server.requests.find((request) => request.path === '/api/user/topup')?.body).toEqual({
      key: 'good-code',
    });
  });

  it('shows the server price, refuses an amount under the minimum, and posts the pay form', async () => {
    signIn();
    const submitted: Record<string, string>[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push({
        action: this.action,
        target: this.target,
        ...Object.fromEntries([...this.querySelectorAll('input')].map((input) => [input.name, input.value])),
      });
    });
    const server = installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/user/self': () => envelope({ id: 7, username: 'me', role: 1, status: 1, quota: 0 }),
      'GET /api/user/topup/info': () => envelope(info),
      'GET /api/user/topup/self': noOrders,
      'POST /api/user/amount': (request) =>
        request
          .clone()
          .json()
          .then((body: { amount: number }) =>
            jsonResponse({ success: true, message: 'success', data: (body.amount * 7.3).toFixed(2) }),
          ),
      'POST /api/user/pay': () =>
        jsonResponse({
          success: true,
          message: 'success',
          data: { pid: '1001', type: 'alipay', money: '73.00', name: 'TUC10', sign: 'abc', sign_type: 'MD5' },
          url: 'https://pay.example/submit.php',
        }),
    });
    const user = userEvent.setup();
    renderInConsole(<WalletPage />, { path: '/topup' });
    const amount = await screen.findByLabelText(/Amount/);
    expect(await screen.findByText('To pay: 14.60 CNY')).toBeTruthy();

    await user.clear(amount);
    await user.type(amount, '1');
    await user.click(screen.getByRole('button', { name: 'Alipay' }));
    expect(await screen.findByText('The top-up amount cannot be less than 2')).toBeTruthy();
    expect(server.requests.some((request) => request.path === '/api/user/pay')).toBe(false);

    await user.clear(amount);
    await user.type(amount, '10');
    expect(await screen.findByText('To pay: 73.00 CNY')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Alipay' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toMatchObject({
      action: 'https://pay.example/submit.php',
      target: '_blank',
      pid: '1001',
      money: '73.00',
      sign: 'abc',
    });
    expect(server.requests.find((request) => request.path === '/api/user/pay')?.body).toEqual({
      amount: 10,
      payment_method: 'alipay',
      top_up_code: '',
    });
  });

  it('shows the spec errors for disabled online top-up and a missing top-up link', async () => {
    signIn();
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/user/self': () => envelope({ id: 7, username: 'me', role: 1, status: 1, quota: 0 }),
      'GET /api/user/topup/info': () => envelope({ ...info, enable_online_topup: false }),
      'GET /api/user/topup/self': noOrders,
    });
    const user = userEvent.setup();
    renderInConsole(<WalletPage />, { path: '/topup', language: 'zh' });
    expect(await screen.findByText('管理员未开启在线充值！')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '获取兑换码' }));
    expect(await screen.findByText('超级管理员未设置充值链接！')).toBeTruthy();
  });

  it('shows a pay-method config error when PayMethods is not a list, and the reason of a refused quote', async () => {
    signIn();
    installFakeServer({
      'GET /api/status': () => envelope(status),
      'GET /api/user/self': () => envelope({ id: 7, username: 'me', role: 1, status: 1, quota: 0 }),
      'GET /api/user/topup/info': () => envelope({ ...info, pay_methods: { alipay: true } }),
      'GET /api/user/topup/self': noOrders,
      'POST /api/user/amount': () => jsonResponse({ success: false, message: 'error', data: '充值金额过低' }),
    });
    renderInConsole(<WalletPage />, { path: '/topup' });
    expect(await screen.findByText('Pay method config error, please contact the admin')).toBeTruthy();
    // The quote's reason travels in `data` (not the envelope's message) and is shown as given.
    expect(await screen.findByText('充值金额过低')).toBeTruthy();
  });
});
