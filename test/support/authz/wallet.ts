/** Authorization matrix rows of the wallet area's routes (see route.ts). */
import { Redemption, TopUp } from '../../../server/src/database/entities';
import type { ApiClient, TestApp } from '../test-app';
import { r, type Route } from './route';

/** Makes one unused code as root; returns its id and key. */
async function makeCode(root: ApiClient, name: string): Promise<{ id: number; key: string }> {
  const made = await root.post('/api/redemption/', { name, quota: 5 });
  if (!made.body.success) throw new Error(`create code: ${made.body.message}`);
  const key = (made.body.data as string[])[0];
  const found = await root.get(`/api/redemption/search?keyword=${key}`);
  return { id: found.body.data.items[0].id, key };
}

/** Online top-up configured (keeps a ServerAddress another row may have set). */
async function configureEpay(root: ApiClient): Promise<void> {
  const opts = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
  const put = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
  };
  if (!opts.find((o) => o.key === 'ServerAddress')?.value)
    await put('ServerAddress', 'https://hwallet.example.com');
  await put('PayAddress', 'https://pay.example.com');
  await put('EpayId', '1001');
  await put('EpayKey', 'matrix-epay-key');
}

const code = { id: 0, key: '' };
let created = 0;
let orders = 0;

export const WALLET_ROUTES: Route[] = [
  // redemption codes (admin)
  r('get', '/api/redemption', 'admin', { query: '?p=1&page_size=5' }),
  r('get', '/api/redemption/search', 'admin', { query: '?keyword=matrix' }),
  r('get', '/api/redemption/{id}', 'admin'),
  r('post', '/api/redemption', 'admin', {
    body: () => ({ name: 'matrix-new', quota: 100, count: 1 }),
    effect: async (t: TestApp) => {
      const n = await t.ds.getRepository(Redemption).countBy({ name: 'matrix-new' });
      expect(n).toBe(created + 1);
      created = n;
    },
  }),
  r('put', '/api/redemption', 'admin', {
    prepare: async (root) => {
      Object.assign(code, await makeCode(root, 'matrix-put'));
    },
    body: () => ({ id: code.id, name: 'matrix-edited', quota: 77 }),
    effect: async (t: TestApp) => {
      const row = await t.ds.getRepository(Redemption).findOneByOrFail({ id: code.id });
      expect({ name: row.name, quota: Number(row.quota) }).toEqual({ name: 'matrix-edited', quota: 77 });
    },
  }),
  r('put', '/api/redemption', 'admin', {
    label: 'status only',
    query: '?status_only=true',
    prepare: async (root) => {
      Object.assign(code, await makeCode(root, 'matrix-status'));
    },
    body: () => ({ id: code.id, status: 2 }),
    effect: async (t: TestApp) => {
      expect((await t.ds.getRepository(Redemption).findOneByOrFail({ id: code.id })).status).toBe(2);
    },
  }),
  r('delete', '/api/redemption/invalid', 'admin', {
    prepare: async (root) => {
      const c = await makeCode(root, 'matrix-invalid');
      const res = await root.put('/api/redemption/?status_only=true', { id: c.id, status: 2 });
      if (!res.body.success) throw new Error(res.body.message);
    },
    effect: async (t: TestApp) => {
      const left = await t.ds
        .getRepository(Redemption)
        .createQueryBuilder('r')
        .where('r.deleted_at IS NULL AND r.status = 2')
        .getCount();
      expect(left).toBe(0);
    },
  }),
  r('delete', '/api/redemption/{id}', 'admin'),
  // wallet (own)
  r('post', '/api/user/topup', 'user', {
    prepare: async (root) => {
      Object.assign(code, await makeCode(root, 'matrix-redeem'));
    },
    body: () => ({ key: code.key }),
    effect: async (t: TestApp) => {
      expect((await t.ds.getRepository(Redemption).findOneByOrFail({ id: code.id })).status).toBe(3);
    },
  }),
  r('get', '/api/user/topup/info', 'user'),
  r('post', '/api/user/amount', 'user', { body: () => ({ amount: 10 }) }),
  r('post', '/api/user/pay', 'user', {
    prepare: configureEpay,
    body: () => ({ amount: 1, payment_method: 'zfb' }),
    effect: async (t: TestApp) => {
      const n = await t.ds.getRepository(TopUp).countBy({ status: 'pending' });
      expect(n).toBe(orders + 1);
      orders = n;
    },
  }),
  r('get', '/api/user/topup/self', 'user', { query: '?p=1&page_size=5' }),
  // top-up orders (admin)
  r('get', '/api/user/topup', 'admin', { query: '?p=1&page_size=5' }),
  r('post', '/api/user/topup/complete', 'admin', { body: () => ({ trade_no: 'USR0NOmatrix0000000000' }) }),
];
