/**
 * The wallet: the top-up info, price quotes (Price × TopupGroupRatio, MinTopUp, both display modes),
 * pending orders with a signed epay form, the gateway's callback (signature, merchant, amount, replay
 * and concurrency: an order credits once), the return page, top-up history, an admin's manual
 * completion, and the affiliate transfer. The payment gateway is played by the test: it signs its
 * callbacks with the merchant key the way epay gateways do. Real HTTP against the real app.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { CacheBus, CacheEvent } from '../../server/src/common/cache-bus';
import { LogEntry, TopUp, User } from '../../server/src/database/entities';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { quotaOf } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

const EPAY = {
  server: 'https://gw.example.com',
  pay: 'https://pay.example.com',
  id: '1001',
  key: 'epay-merchant-key-0123',
};

const MSG = {
  amountInvalid: '充值数量必须是正整数',
  amountMin: (n: number) => `充值数量不能小于 ${n}`,
  tooLarge: '充值数量过大',
  tooLow: '充值金额过低',
  disabled: '管理员未开启在线充值',
  method: '支付方式不存在',
  orderNotFound: '充值订单不存在',
  tradeNoRequired: '请提供订单号',
  overflow: '充值后的余额超出系统上限',
};

/** The gateway's signature: sorted non-empty params except sign/sign_type, `k=v&…` + key, MD5 hex. */
function gatewaySign(params: Record<string, string>, key = EPAY.key): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5')
    .update(text + key)
    .digest('hex');
}

interface Order {
  tradeNo: string;
  money: string;
  form: Record<string, string>;
}

describe('wallet', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  const userEvents: CacheEvent[] = [];

  const topups = () => t.ds.getRepository(TopUp);
  const order = (tradeNo: string) => topups().findOneByOrFail({ trade_no: tradeNo });
  const logsOf = (userId: number) => t.ds.getRepository(LogEntry).findBy({ user_id: userId, type: 1 });

  async function configure(): Promise<void> {
    await putOption(root, 'ServerAddress', EPAY.server);
    await putOption(root, 'PayAddress', EPAY.pay);
    await putOption(root, 'EpayId', EPAY.id);
    await putOption(root, 'EpayKey', EPAY.key);
  }

  async function pay(client: ApiClient, amount = 10, method = 'zfb'): Promise<Order> {
    const res = await client
      .post('/api/user/pay', { amount, payment_method: method, top_up_code: '' })
      .expect(200);
    if (!res.body.success) throw new Error(`pay: ${JSON.stringify(res.body)}`);
    const form = res.body.data as Record<string, string>;
    return { tradeNo: form.out_trade_no, money: form.money, form };
  }

  /** The callback a gateway sends for a paid order, signed. */
  function callback(
    o: Order,
    overrides: Record<string, string> = {},
    key = EPAY.key,
  ): Record<string, string> {
    const params: Record<string, string> = {
      pid: EPAY.id,
      trade_no: `GW${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
      out_trade_no: o.tradeNo,
      type: o.form.type,
      name: o.form.name,
      money: o.money,
      trade_status: 'TRADE_SUCCESS',
      param: '',
      ...overrides,
    };
    return { ...params, sign: gatewaySign(params, key), sign_type: 'MD5' };
  }

  function notify(params: Record<string, string>, how: 'get' | 'post' = 'get') {
    const qs = new URLSearchParams(params).toString();
    return how === 'get'
      ? request(t.url).get(`/api/user/epay/notify?${qs}`)
      : request(t.url).post('/api/user/epay/notify').type('form').send(qs);
  }

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    t.app.get(CacheBus).on('users', (e) => userEvents.push(e));
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- info and quotes

  describe('info and price quotes', () => {
    it('topup/info: the wallet settings with their defaults, online top-up off until configured', async () => {
      const res = await alice.get('/api/user/topup/info').expect(200);
      expect(res.body).toEqual({
        success: true,
        message: '',
        data: {
          enable_online_topup: false,
          pay_methods: [
            { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'zfb' },
            { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wx' },
          ],
          min_topup: 1,
          price: 7.3,
          topup_group_ratio: 1,
          quota_per_unit: 500000,
          display_in_currency: true,
          usd_exchange_rate: 7.3,
          topup_link: '',
        },
      });
    });

    it('the payment settings are validated and root-only (TopupGroupRatio, PayMethods, MinTopUp, Price)', async () => {
      const put = (client: ApiClient, key: string, value: string) =>
        client.put('/api/option/', { key, value });
      expect((await put(root, 'TopupGroupRatio', '{default: 1')).body).toMatchObject({
        success: false,
        message: '充值分组倍率不是合法的 JSON 字符串',
      });
      expect((await put(root, 'TopupGroupRatio', '{"vip": -1}')).body.success).toBe(false);
      expect((await put(root, 'PayMethods', '[{"name": "支付宝"')).body).toMatchObject({
        success: false,
        message: '充值方式设置不是合法的 JSON 字符串',
      });
      expect((await put(root, 'PayMethods', '[{"name": "x"}]')).body.success).toBe(false);
      expect((await put(root, 'MinTopUp', '-1')).body.success).toBe(false);
      expect((await put(root, 'MinTopUp', '1.5')).body.success).toBe(false);
      expect((await put(root, 'Price', 'abc')).body.success).toBe(false);
      await put(admin, 'Price', '1').expect(403);
      await put(admin, 'EpayKey', 'stolen').expect(403);
      const info = (await alice.get('/api/user/topup/info')).body.data;
      expect(info).toMatchObject({
        price: 7.3,
        min_topup: 1,
        topup_group_ratio: 1,
        enable_online_topup: false,
      });
    });

    it('amount × Price: {success, message: "success", data: "<two decimals>"}', async () => {
      expect(
        (await alice.post('/api/user/amount', { amount: 10, top_up_code: 'x' }).expect(200)).body,
      ).toEqual({
        success: true,
        message: 'success',
        data: '73.00',
      });
      expect((await alice.post('/api/user/amount', { amount: 3 })).body.data).toBe('21.90');
      expect((await alice.post('/api/user/amount', { amount: 1 })).body.data).toBe('7.30');
    });

    it('TopupGroupRatio of the caller’s group multiplies the price (missing or 0 counts as 1)', async () => {
      await putOption(root, 'TopupGroupRatio', JSON.stringify({ default: 1, vip: 0.8, svip: 0 }));
      const carol = await makeUser(t, root);
      expect((await root.put('/api/user/', { id: carol.userId, group: 'vip' })).body.success).toBe(true);
      expect((await carol.post('/api/user/amount', { amount: 10 })).body.data).toBe('58.40');
      expect((await carol.get('/api/user/topup/info')).body.data.topup_group_ratio).toBe(0.8);
      expect((await root.put('/api/user/', { id: carol.userId, group: 'svip' })).body.success).toBe(true);
      expect((await carol.post('/api/user/amount', { amount: 10 })).body.data).toBe('73.00');
      expect((await root.put('/api/user/', { id: carol.userId, group: 'nogroup' })).body.success).toBe(true);
      expect((await carol.post('/api/user/amount', { amount: 10 })).body.data).toBe('73.00');
      expect((await alice.post('/api/user/amount', { amount: 10 })).body.data).toBe('73.00');
    });

    it('MinTopUp: smaller amounts are refused with the minimum in the message', async () => {
      await putOption(root, 'MinTopUp', 5);
      try {
        expect((await alice.post('/api/user/amount', { amount: 4 })).body).toEqual({
          success: false,
          message: 'error',
          data: MSG.amountMin(5),
        });
        expect((await alice.post('/api/user/amount', { amount: 5 })).body.data).toBe('36.50');
        const en = await alice.post('/api/user/amount', { amount: 4 }).set('Accept-Language', 'en');
        expect(en.body.data).toBe('The top-up amount cannot be less than 5');
      } finally {
        await putOption(root, 'MinTopUp', 1);
      }
    });

    it.each([
      ['zero', 0, MSG.amountInvalid],
      ['negative', -10, MSG.amountInvalid],
      ['fractional', 2.5, MSG.amountInvalid],
      ['a numeric string', '10', MSG.amountInvalid],
      ['null', null, MSG.amountInvalid],
      ['missing', undefined, MSG.amountInvalid],
      ['a boolean', true, MSG.amountInvalid],
      ['a list', [10], MSG.amountInvalid],
      ['beyond 2^53', 2 ** 60, MSG.tooLarge],
      ['whose quota passes 2^53', 1e15, MSG.tooLarge],
    ])('refuses an amount that is %s', async (_name, amount, msg) => {
      const res = await alice.post('/api/user/amount', { amount }).expect(200);
      expect(res.body).toEqual({ success: false, message: 'error', data: msg });
    });

    it('refuses 1e400 (Infinity), non-object bodies and malformed JSON', async () => {
      const inf = await alice
        .post('/api/user/amount', '{"amount": 1e400}')
        .set('Content-Type', 'application/json')
        .expect(200);
      expect(inf.body).toEqual({ success: false, message: 'error', data: MSG.tooLarge });
      const list = await alice.post('/api/user/amount', [10]).expect(200);
      expect(list.body.success).toBe(false);
      const broken = await alice
        .post('/api/user/amount', '{"amount": ')
        .set('Content-Type', 'application/json')
        .expect(200);
      expect(broken.body).toMatchObject({ success: false, message: '请求体不是合法的 JSON' });
    });

    it('a price that rounds below one cent is refused', async () => {
      await putOption(root, 'Price', 0);
      try {
        expect((await alice.post('/api/user/amount', { amount: 10 })).body).toEqual({
          success: false,
          message: 'error',
          data: MSG.tooLow,
        });
      } finally {
        await putOption(root, 'Price', 7.3);
      }
    });

    it('in quota display mode the amount is quota; the minimum is MinTopUp units of it', async () => {
      await putOption(root, 'DisplayInCurrencyEnabled', false);
      try {
        expect((await alice.post('/api/user/amount', { amount: 1000000 })).body.data).toBe('14.60');
        expect((await alice.post('/api/user/amount', { amount: 750000 })).body.data).toBe('10.95');
        expect((await alice.post('/api/user/amount', { amount: 499999 })).body).toEqual({
          success: false,
          message: 'error',
          data: MSG.amountMin(500000),
        });
      } finally {
        await putOption(root, 'DisplayInCurrencyEnabled', true);
      }
    });
  });

  // ---------------------------------------------------------------- pay

  describe('pay', () => {
    it('refuses while online top-up is not configured, and creates nothing', async () => {
      const res = await alice.post('/api/user/pay', { amount: 10, payment_method: 'zfb' }).expect(200);
      expect(res.body).toEqual({ success: false, message: 'error', data: MSG.disabled });
      expect(await topups().count()).toBe(0);
    });

    it('creates a pending order and answers the signed epay form and its address', async () => {
      await configure();
      expect((await alice.get('/api/user/topup/info')).body.data.enable_online_topup).toBe(true);
      const res = await alice
        .post('/api/user/pay', { amount: 10, payment_method: 'zfb', top_up_code: '' })
        .expect(200);
      expect(res.body).toMatchObject({ success: true, message: 'success', url: `${EPAY.pay}/submit.php` });
      const form = res.body.data as Record<string, string>;
      expect(form).toEqual({
        pid: EPAY.id,
        type: 'zfb',
        out_trade_no: expect.stringMatching(new RegExp(`^USR${alice.userId}NO[A-Za-z0-9]{6}\\d{10}$`)),
        notify_url: `${EPAY.server}/api/user/epay/notify`,
        return_url: `${EPAY.server}/api/user/epay/return`,
        name: 'TUC10',
        money: '73.00',
        device: 'pc',
        sign_type: 'MD5',
        sign: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      expect(form.sign).toBe(gatewaySign(form));
      expect(res.text).not.toContain(EPAY.key);
      const row = await order(form.out_trade_no);
      expect(row).toMatchObject({
        user_id: alice.userId,
        status: 'pending',
        payment_method: 'zfb',
        complete_time: 0,
      });
      expect({ amount: Number(row.amount), money: Number(row.money) }).toEqual({
        amount: 5000000,
        money: 73,
      });
      expect(Math.abs(Number(row.create_time) - Date.now() / 1000)).toBeLessThan(5);
    });

    it('the secret merchant key is never returned by the option list', async () => {
      const opts = await root.get('/api/option/').expect(200);
      expect(opts.text).not.toContain(EPAY.key);
      expect((opts.body.data as Array<{ key: string }>).map((o) => o.key)).not.toContain('EpayKey');
      expect((await request(t.url).get('/api/status')).text).not.toContain(EPAY.key);
    });

    it('CustomCallbackAddress, when set, is the base of the notify and return URLs', async () => {
      await putOption(root, 'CustomCallbackAddress', 'https://cb.example.com/');
      try {
        const o = await pay(bob, 2, 'wx');
        expect(o.form).toMatchObject({
          notify_url: 'https://cb.example.com/api/user/epay/notify',
          return_url: 'https://cb.example.com/api/user/epay/return',
          money: '14.60',
          type: 'wx',
        });
      } finally {
        await putOption(root, 'CustomCallbackAddress', '');
      }
    });

    it('refuses unknown payment methods and bad amounts, creating no order', async () => {
      const before = await topups().count();
      for (const [body, msg] of [
        [{ amount: 10, payment_method: 'btc' }, MSG.method],
        [{ amount: 10 }, MSG.method],
        [{ amount: 10, payment_method: 7 }, MSG.method],
        [{ amount: 10, payment_method: '支付宝' }, MSG.method],
        [{ amount: -1, payment_method: 'zfb' }, MSG.amountInvalid],
        [{ amount: 0.5, payment_method: 'zfb' }, MSG.amountInvalid],
        [{ amount: '10', payment_method: 'zfb' }, MSG.amountInvalid],
        [{ amount: 2 ** 60, payment_method: 'zfb' }, MSG.tooLarge],
      ] as const) {
        const res = await alice.post('/api/user/pay', body).expect(200);
        expect(res.body).toEqual({ success: false, message: 'error', data: msg });
      }
      expect(
        (await alice.post('/api/user/pay', '{').set('Content-Type', 'application/json')).body.success,
      ).toBe(false);
      expect(await topups().count()).toBe(before);
    });

    it('refuses an order the balance could not hold once paid', async () => {
      const dave = await makeUser(t, root);
      await t.ds.getRepository(User).update({ id: dave.userId! }, { quota: Number.MAX_SAFE_INTEGER - 100 });
      const res = await dave.post('/api/user/pay', { amount: 1, payment_method: 'zfb' }).expect(200);
      expect(res.body).toEqual({ success: false, message: 'error', data: MSG.overflow });
      expect(await topups().countBy({ user_id: dave.userId! })).toBe(0);
    });
  });

  // ---------------------------------------------------------------- the gateway's callback

  describe('epay notify', () => {
    it('a signed callback credits the order once, with a top-up log, and the relay view follows', async () => {
      const o = await pay(alice, 10);
      const before = await quotaOf(t, alice.userId!);
      const ledger = t.app.get(QuotaLedgerService);
      expect(await ledger.balanceOf(alice.userId!)).toBe(before);
      userEvents.length = 0;
      const res = await notify(callback(o)).expect(200);
      expect(res.text).toBe('success');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(await quotaOf(t, alice.userId!)).toBe(before + 5000000);
      expect(await ledger.balanceOf(alice.userId!)).toBe(before + 5000000);
      expect(userEvents.some((e) => e.keys.map(Number).includes(alice.userId!))).toBe(true);
      const row = await order(o.tradeNo);
      expect(row.status).toBe('success');
      expect(Math.abs(Number(row.complete_time) - Date.now() / 1000)).toBeLessThan(5);
      const logs = (await logsOf(alice.userId!)).filter((l) => (l.other ?? '').includes(o.tradeNo));
      expect(logs).toHaveLength(1);
      expect(Number(logs[0].quota)).toBe(5000000);
      expect(logs[0].content).toBe('使用在线充值成功，充值额度: $10.00，支付金额：73.00');

      // The same callback again (gateways repeat until they read "success"): acknowledged, not credited.
      expect((await notify(callback(o)).expect(200)).text).toBe('success');
      expect((await notify(callback(o), 'post').expect(200)).text).toBe('success');
      expect(await quotaOf(t, alice.userId!)).toBe(before + 5000000);
      expect((await logsOf(alice.userId!)).filter((l) => (l.other ?? '').includes(o.tradeNo))).toHaveLength(
        1,
      );
    });

    it('20 concurrent deliveries of one callback credit once', async () => {
      const o = await pay(bob, 3, 'wx');
      const before = await quotaOf(t, bob.userId!);
      const params = callback(o);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => notify(params, i % 2 ? 'post' : 'get').then((r) => r.text)),
      );
      expect(answers).toEqual(Array(20).fill('success'));
      expect(await quotaOf(t, bob.userId!)).toBe(before + 1500000);
      expect((await logsOf(bob.userId!)).filter((l) => (l.other ?? '').includes(o.tradeNo))).toHaveLength(1);
      expect((await order(o.tradeNo)).payment_method).toBe('wx');
    });

    it('a form-encoded POST callback works; money may come without decimals', async () => {
      const o = await pay(bob, 10);
      const before = await quotaOf(t, bob.userId!);
      expect((await notify(callback(o, { money: '73' }), 'post').expect(200)).text).toBe('success');
      expect(await quotaOf(t, bob.userId!)).toBe(before + 5000000);
    });

    it('refuses forged, tampered, mis-addressed and wrong-amount callbacks, changing nothing', async () => {
      const o = await pay(alice, 10);
      const before = await quotaOf(t, alice.userId!);
      const logCount = (await logsOf(alice.userId!)).length;
      const tampered = { ...callback(o), money: '730.00' };
      const cases: Array<[string, Record<string, string>]> = [
        ['signed with another key', callback(o, {}, 'not-the-key')],
        ['no signature', (({ sign: _s, ...rest }) => rest)(callback(o))],
        ['a field changed after signing', tampered],
        ['signed, but a smaller amount', callback(o, { money: '0.01' })],
        ['signed, but a larger amount', callback(o, { money: '73.01' })],
        ['signed, but not a number', callback(o, { money: 'free' })],
        ['signed, another merchant', callback(o, { pid: '9999' })],
        ['signed, unknown order', callback({ ...o, tradeNo: 'USR1NOnope001' })],
        ['signed, sign_type RSA', { ...callback(o), sign_type: 'RSA' }],
      ];
      for (const [name, params] of cases) {
        const res = await notify(params).expect(200);
        expect({ name, text: res.text }).toEqual({ name, text: 'fail' });
      }
      const dup = await request(t.url)
        .get(`/api/user/epay/notify?${new URLSearchParams(callback(o)).toString()}&out_trade_no=${o.tradeNo}`)
        .expect(200);
      expect(dup.text).toBe('fail');
      expect((await request(t.url).get('/api/user/epay/notify').expect(200)).text).toBe('fail');
      expect((await request(t.url).post('/api/user/epay/notify').send({}).expect(200)).text).toBe('fail');
      expect((await order(o.tradeNo)).status).toBe('pending');
      expect(await quotaOf(t, alice.userId!)).toBe(before);
      expect((await logsOf(alice.userId!)).length).toBe(logCount);
    });

    it('a callback for an unpaid state is acknowledged and credits nothing', async () => {
      const o = await pay(alice, 10);
      const before = await quotaOf(t, alice.userId!);
      expect((await notify(callback(o, { trade_status: 'WAIT_BUYER_PAY' })).expect(200)).text).toBe(
        'success',
      );
      expect((await order(o.tradeNo)).status).toBe('pending');
      expect(await quotaOf(t, alice.userId!)).toBe(before);
    });

    it('once the merchant key is cleared, callbacks fail and nothing is credited', async () => {
      const o = await pay(alice, 10);
      const before = await quotaOf(t, alice.userId!);
      expect((await root.put('/api/option/', { key: 'EpayKey', value: '', clear: true })).body.success).toBe(
        true,
      );
      try {
        expect((await notify(callback(o)).expect(200)).text).toBe('fail');
        expect((await alice.post('/api/user/pay', { amount: 1, payment_method: 'zfb' })).body.data).toBe(
          MSG.disabled,
        );
      } finally {
        await putOption(root, 'EpayKey', EPAY.key);
      }
      expect(await quotaOf(t, alice.userId!)).toBe(before);
      expect((await notify(callback(o)).expect(200)).text).toBe('success');
      expect(await quotaOf(t, alice.userId!)).toBe(before + 5000000);
    });

    it('the return page sends the browser to the console’s wallet page, signed in or not', async () => {
      const o = await pay(alice, 1);
      const res = await request(t.url).get(
        `/api/user/epay/return?${new URLSearchParams(callback(o)).toString()}`,
      );
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${EPAY.server}/topup`);
      expect((await order(o.tradeNo)).status).toBe('pending');
    });

    it('an order keeps what it bought when prices change before it is paid', async () => {
      const o = await pay(bob, 10);
      await putOption(root, 'Price', 8);
      await putOption(root, 'QuotaPerUnit', 1000000);
      try {
        const before = await quotaOf(t, bob.userId!);
        expect((await notify(callback(o)).expect(200)).text).toBe('success');
        expect(await quotaOf(t, bob.userId!)).toBe(before + 5000000);
      } finally {
        await putOption(root, 'Price', 7.3);
        await putOption(root, 'QuotaPerUnit', 500000);
      }
    });
  });

  // ---------------------------------------------------------------- history and admin completion

  describe('top-up history', () => {
    it('topup/self lists the caller’s own orders, newest first, paged and filtered', async () => {
      const mine = await topups().find({ where: { user_id: alice.userId! }, order: { id: 'DESC' } });
      const res = await alice.get('/api/user/topup/self?p=0&page_size=2').expect(200);
      expect(res.body.data).toMatchObject({ page: 1, page_size: 2, total: mine.length });
      expect(res.body.data.items.map((x: { id: number }) => x.id)).toEqual(mine.slice(0, 2).map((x) => x.id));
      expect(Object.keys(res.body.data.items[0]).sort()).toEqual(
        [
          'amount',
          'complete_time',
          'create_time',
          'id',
          'money',
          'payment_method',
          'status',
          'trade_no',
          'user_id',
        ].sort(),
      );
      const all = await alice.get('/api/user/topup/self?page_size=1000').expect(200);
      expect(all.body.data.page_size).toBe(100);
      expect(all.body.data.items.every((x: { user_id: number }) => x.user_id === alice.userId)).toBe(true);
      const pending = await alice.get('/api/user/topup/self?status=pending&page_size=100').expect(200);
      expect(pending.body.data.total).toBe(mine.filter((x) => x.status === 'pending').length);
      // A part of the order number (all but its prefix): unique, as the last 12 characters are not when two
      // orders are made in the same second (two random characters, then the time).
      const one = await alice.get(`/api/user/topup/self?keyword=${mine[0].trade_no.slice(3)}`).expect(200);
      expect(one.body.data.items.map((x: { id: number }) => x.id)).toEqual([mine[0].id]);
      const literal = await alice.get('/api/user/topup/self?keyword=%25').expect(200);
      expect(literal.body.data.total).toBe(0);
      const bad = await alice.get('/api/user/topup/self?status=paid').expect(200);
      expect(bad.body).toMatchObject({ success: false, data: null });
      const bobs = await bob.get(`/api/user/topup/self?keyword=${mine[0].trade_no}`).expect(200);
      expect(bobs.body.data.total).toBe(0);
    });

    it('admins list every order with its owner’s name, filtered by user', async () => {
      const total = await topups().count();
      const res = await admin.get('/api/user/topup?p=0&page_size=1000').expect(200);
      expect(res.body.data).toMatchObject({ page: 1, page_size: 100, total });
      const item = (res.body.data.items as Array<{ user_id: number; username: string }>).find(
        (x) => x.user_id === bob.userId,
      )!;
      expect(item.username).toBe(bob.username);
      const bobs = await admin.get(`/api/user/topup?user_id=${bob.userId}&page_size=100`).expect(200);
      expect(bobs.body.data.total).toBe(await topups().countBy({ user_id: bob.userId! }));
      expect(bobs.body.data.items.every((x: { user_id: number }) => x.user_id === bob.userId)).toBe(true);
      expect((await admin.get('/api/user/topup?user_id=abc').expect(200)).body.success).toBe(false);
      await alice.get('/api/user/topup').expect(403);
    });
  });

  describe('manual completion', () => {
    it('an admin completes a pending order once; repeating it changes nothing', async () => {
      const o = await pay(alice, 2);
      const before = await quotaOf(t, alice.userId!);
      const res = await admin.post('/api/user/topup/complete', { trade_no: o.tradeNo }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { trade_no: o.tradeNo, status: 'success', amount: 1000000 },
      });
      expect(await quotaOf(t, alice.userId!)).toBe(before + 1000000);
      const again = await admin.post('/api/user/topup/complete', { trade_no: o.tradeNo }).expect(200);
      expect(again.body).toMatchObject({ success: true, data: { status: 'success' } });
      expect((await notify(callback(o))).text).toBe('success');
      expect(await quotaOf(t, alice.userId!)).toBe(before + 1000000);
      const logs = (await logsOf(alice.userId!)).filter((l) => (l.other ?? '').includes(o.tradeNo));
      expect(logs).toHaveLength(1);
      expect(logs[0].content).toContain('管理员补单成功');
      expect(logs[0].content).toContain(admin.username);
    });

    it('refuses unknown and missing order numbers', async () => {
      for (const [body, msg] of [
        [{ trade_no: 'USR0NOnothing1' }, MSG.orderNotFound],
        [{ trade_no: 'x'.repeat(65) }, MSG.orderNotFound],
        [{}, MSG.tradeNoRequired],
        [{ trade_no: '' }, MSG.tradeNoRequired],
        [{ trade_no: 42 }, MSG.tradeNoRequired],
      ] as const) {
        const res = await admin.post('/api/user/topup/complete', body).expect(200);
        expect(res.body).toMatchObject({ success: false, message: msg, data: null });
      }
    });

    it('nobody completes an order of their own or of a user of the same or a higher role, except root', async () => {
      const own = await pay(admin, 1);
      const rootOrder = await pay(root, 1);
      for (const o of [own, rootOrder]) {
        await admin.post('/api/user/topup/complete', { trade_no: o.tradeNo }).expect(403);
        expect((await order(o.tradeNo)).status).toBe('pending');
      }
      const before = await quotaOf(t, admin.userId!);
      const res = await root.post('/api/user/topup/complete', { trade_no: own.tradeNo }).expect(200);
      expect(res.body.success).toBe(true);
      expect(await quotaOf(t, admin.userId!)).toBe(before + 500000);
      await alice.post('/api/user/topup/complete', { trade_no: rootOrder.tradeNo }).expect(403);
    });

    it('completion racing the gateway’s callback credits once', async () => {
      const o = await pay(bob, 4);
      const before = await quotaOf(t, bob.userId!);
      const params = callback(o);
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => admin.post('/api/user/topup/complete', { trade_no: o.tradeNo })),
        ...Array.from({ length: 5 }, () => notify(params)),
      ]);
      expect(results.slice(0, 5).every((r) => r.body.success === true)).toBe(true);
      expect(results.slice(5).map((r) => r.text)).toEqual(Array(5).fill('success'));
      expect(await quotaOf(t, bob.userId!)).toBe(before + 2000000);
      expect((await logsOf(bob.userId!)).filter((l) => (l.other ?? '').includes(o.tradeNo))).toHaveLength(1);
    });
  });

  // ---------------------------------------------------------------- affiliate transfer (user module)

  describe('affiliate transfer', () => {
    it('moves invitation earnings into the balance, at least one unit, never more than earned', async () => {
      const erin = await makeUser(t, root);
      await t.ds.getRepository(User).update({ id: erin.userId! }, { aff_quota: 1000000 });
      const tooSmall = await erin.post('/api/user/aff_transfer', { quota: 499999 }).expect(200);
      expect(tooSmall.body).toMatchObject({ success: false, message: '划转金额最低为 $1.00' });
      const ok = await erin.post('/api/user/aff_transfer', { quota: 600000 }).expect(200);
      expect(ok.body.success).toBe(true);
      const row = await t.ds.getRepository(User).findOneByOrFail({ id: erin.userId! });
      expect({ quota: Number(row.quota), aff: Number(row.aff_quota) }).toEqual({
        quota: 600000,
        aff: 400000,
      });
      const tooMuch = await erin.post('/api/user/aff_transfer', { quota: 500000 }).expect(200);
      expect(tooMuch.body).toMatchObject({ success: false, message: '邀请额度不足' });
      const logs = await t.ds.getRepository(LogEntry).findBy({ user_id: erin.userId!, type: 4 });
      expect(logs.map((l) => Number(l.quota))).toEqual([600000]);
    });
  });
});
