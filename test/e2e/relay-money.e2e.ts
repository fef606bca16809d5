/**
 * Money in full: admission is conditional on the balance (and the token's remaining quota) covering a
 * call's reservation; a served call is charged its whole price even when that takes the balance below
 * zero; the next call is then refused until a top-up. For every burst: one consume log per served call
 * at its full price, Σ logs = the balance change = the token's used-quota change, nothing left "in
 * progress". Streams and non-streams mixed, 120 calls at once, on one node and across two.
 */
import { randomBytes } from 'node:crypto';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import {
  ApiClient,
  makeUser,
  putOption,
  REDIS_URL,
  setupRoot,
  startApp,
  startNode,
  TestApp,
} from '../support/test-app';

const CALLS = 120;
/** gpt-4o with the default options: model ratio 1.25, completion ratio 4. */
const fullPrice = (prompt: number, completion: number) => Math.round((prompt + completion * 4) * 1.25);

const USER_REFUSAL = ['Insufficient user quota'];
/** A token refused at reservation, or already known to be used up. */
const TOKEN_REFUSALS = ['Insufficient token quota', 'This token has used up its quota'];

interface Answer {
  status: number;
  requestId: string;
  text: string;
}

async function call(url: string, key: string, stream: boolean): Promise<Answer> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-oneapi-request-id') ?? '',
    text: await res.text(),
  };
}

/** `CALLS` calls at once, streams and non-streams alternating, spread over the given nodes. */
function burst(urls: string[], key: string): Promise<Answer[]> {
  return Promise.all(Array.from({ length: CALLS }, (_, i) => call(urls[i % urls.length], key, i % 2 === 0)));
}

async function tokenQuota(t: TestApp, id: number): Promise<{ remain: number; used: number }> {
  const rows: Array<Record<string, unknown>> = await t.ds.query(
    `SELECT remain_quota, used_quota FROM tokens WHERE id = ${Math.floor(id)}`,
  );
  return { remain: Number(rows[0].remain_quota), used: Number(rows[0].used_quota) };
}

/**
 * The invariants after a burst: each served call has exactly one consume log at its full price, the
 * refused ones none; Σ logs = balance change = token used change; no reservation left open.
 */
async function checkBurst(
  nodes: TestApp[],
  userId: number,
  token: { id: number },
  start: { balance: number; tokenUsed: number },
  answers: Answer[],
  refusals: string[],
): Promise<{ served: number; charged: number; balance: number }> {
  for (const n of nodes) await settle(n);
  const t = nodes[0];
  const served = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status !== 200);
  for (const a of refused) {
    expect(a.status).toBe(403);
    expect(refusals).toContain(JSON.parse(a.text).error.message);
  }
  for (const a of served.filter((x) => x.text.startsWith('data:'))) expect(a.text).toContain('data: [DONE]');
  const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
  expect(logs.map((l) => l.request_id).sort()).toEqual(served.map((a) => a.requestId).sort());
  for (const log of logs) {
    expect(log.quota).toBe(fullPrice(log.prompt_tokens, log.completion_tokens));
    expect(log.content).toBe('');
  }
  const charged = logs.reduce((s, l) => s + l.quota, 0);
  const balance = await quotaOf(t, userId);
  expect(start.balance - balance).toBe(charged);
  expect((await tokenQuota(t, token.id)).used - start.tokenUsed).toBe(charged);
  const open: Array<{ n: string | number }> = await t.ds.query(
    `SELECT COUNT(*) AS n FROM logs WHERE user_id = ${Math.floor(userId)} AND content = 'in progress'`,
  );
  expect(Number(open[0].n)).toBe(0);
  return { served: served.length, charged, balance };
}

describe('served calls are charged in full (one node)', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o' });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const fresh = async (balance: number, tokenQuota?: number) => {
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, balance);
    const token = await makeToken(
      t,
      user.userId!,
      tokenQuota === undefined ? {} : { remain_quota: tokenQuota },
    );
    return { userId: user.userId!, token };
  };

  it('with the default PreConsumedQuota (500), admits only what the balance covers and charges each in full', async () => {
    await putOption(root, 'PreConsumedQuota', '500');
    const { userId, token } = await fresh(2900);
    const answers = await burst([t.url], token.key);
    const r = await checkBurst([t], userId, token, { balance: 2900, tokenUsed: 0 }, answers, USER_REFUSAL);
    // Each admitted call held at least 500 (more than its price) while in flight: the balance covers
    // every call it admitted, so it never goes below zero.
    expect(r.served).toBeGreaterThanOrEqual(1);
    expect(r.served).toBeLessThanOrEqual(Math.floor(2900 / fullPrice(10, 5)));
    expect(r.balance).toBeGreaterThanOrEqual(0);
  });

  it('with PreConsumedQuota 0, every admitted call is charged in full, the balance may end below zero, and the next call waits for a top-up', async () => {
    await putOption(root, 'PreConsumedQuota', '0');
    const { userId, token } = await fresh(2900);
    const answers = await burst([t.url], token.key);
    const r = await checkBurst([t], userId, token, { balance: 2900, tokenUsed: 0 }, answers, USER_REFUSAL);
    // More were served than 2,900 pays for at full price: none of them was cut to fit.
    expect(r.served).toBeGreaterThan(Math.floor(2900 / fullPrice(10, 5)));
    expect(r.balance).toBeLessThan(0);
    const next = await call(t.url, token.key, false);
    expect(next.status).toBe(403);
    expect(JSON.parse(next.text).error).toMatchObject({
      message: 'Insufficient user quota',
      code: 'insufficient_quota',
    });
    // A top-up that brings the balance back above zero lets calls through again.
    await setQuota(t, userId, 10_000);
    expect((await call(t.url, token.key, true)).status).toBe(200);
    await settle(t);
    expect(await quotaOf(t, userId)).toBe(10_000 - fullPrice(10, 5));
  });

  it('with a token limit smaller than the balance, the token bounds admission and its used quota equals the charges', async () => {
    await putOption(root, 'PreConsumedQuota', '0');
    const { userId, token } = await fresh(1_000_000, 2900);
    const answers = await burst([t.url], token.key);
    const r = await checkBurst(
      [t],
      userId,
      token,
      { balance: 1_000_000, tokenUsed: 0 },
      answers,
      TOKEN_REFUSALS,
    );
    expect(r.served).toBeGreaterThanOrEqual(1);
    const after = await tokenQuota(t, token.id);
    // The remaining quota is a limit: it floors at zero once served calls have used it up.
    expect(after.remain).toBe(Math.max(0, 2900 - r.charged));
  });

  it('a failed call is refunded in full and logs no charge', async () => {
    await putOption(root, 'PreConsumedQuota', '500');
    const { userId, token } = await fresh(5000);
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: '[[status=500]] fail' }] }),
    });
    expect(res.status).toBe(500);
    await settle(t);
    expect(await quotaOf(t, userId)).toBe(5000);
    const logs = await logsOf(t, userId);
    expect(logs.filter((l) => l.type === 2)).toHaveLength(0);
    expect(logs.filter((l) => l.type === 5)).toHaveLength(1);
  });
});

describe('served calls are charged in full (two nodes, one database)', () => {
  let a: TestApp;
  let b: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  const env = { REDIS_CONN_STRING: REDIS_URL, REDIS_PREFIX: `gh-test-${randomBytes(4).toString('hex')}` };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    a = await startApp(env);
    b = await startNode(a, { ...env, NODE_TYPE: 'slave' });
    root = await setupRoot(a);
    await makeChannel(a, { type: 1, base_url: mock.url, models: 'gpt-4o' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mock?.close();
  });

  it.each([
    ['500', undefined],
    ['0', undefined],
    ['0', 2900],
  ])(
    'PreConsumedQuota %s, token limit %s: Σ logs = balance change = token used change across both nodes',
    async (pre, limit) => {
      await putOption(root, 'PreConsumedQuota', pre);
      const user = await makeUser(a, root);
      const balance = limit ? 1_000_000 : 2900;
      await setQuota(a, user.userId!, balance);
      const token = await makeToken(a, user.userId!, limit === undefined ? {} : { remain_quota: limit });
      // Both nodes know the new user and token before the burst.
      await new Promise((r) => setTimeout(r, 300));
      const answers = await burst([a.url, b.url], token.key);
      const r = await checkBurst(
        [a, b],
        user.userId!,
        token,
        { balance, tokenUsed: 0 },
        answers,
        limit ? TOKEN_REFUSALS : USER_REFUSAL,
      );
      expect(r.served).toBeGreaterThanOrEqual(1);
      if (pre === '500') expect(r.balance).toBeGreaterThanOrEqual(0);
    },
  );
});
