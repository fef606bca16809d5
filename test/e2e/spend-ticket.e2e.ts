/**
 * The spend ticket across entry points: quota caps that hold for calls without max_tokens (60 at once,
 * on one node and on two sharing the database and Redis), refusals that say what ran out and when to
 * retry, a realtime burst of response.create admitted response by response, and token limits applied
 * to realtime sessions and task submissions alike.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import WebSocket from 'ws';
import { BudgetService } from '../../server/src/modules/budget/budget.service';
import { RelayCacheService } from '../../server/src/modules/relay/relay-cache.service';
import { MockMidjourney } from '../mocks/midjourney';
import { MockUpstream } from '../mocks/mock-upstream';
import { MockRealtime } from '../mocks/realtime';
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

const MODEL = 'gpt-4o';
const RT_MODEL = 'gpt-4o-realtime-preview';
/** (11 prompt + 200 completion) × model ratio 10 × completion ratio 1. */
const PRICE = 2110;
const CAP = 20 * PRICE;
const PARALLEL = 60;

interface Answer {
  status: number;
  requestId: string;
  retryAfter: string | null;
  body: { error?: { code?: string; message?: string; type?: string } };
}

/** A chat without max_tokens whose answer comes after 1.2 s and costs PRICE. */
async function chat(url: string, key: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: '[[slow=1200]] [[usage=11,200]] hi' }],
    }),
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-oneapi-request-id') ?? '',
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Answer['body'],
  };
}

async function mergeOption(root: ApiClient, key: string, entries: Record<string, unknown>): Promise<void> {
  const res = await root.get('/api/option/');
  const item = (res.body.data as Array<{ key: string; value: string }>).find((o) => o.key === key);
  const current = JSON.parse(item?.value || '{}') as Record<string, unknown>;
  await putOption(root, key, JSON.stringify({ ...current, ...entries }));
}

async function counter(
  t: TestApp,
  tokenId: number,
): Promise<{ quota: number; held: number; requests: number }> {
  const rows: Array<Record<string, unknown>> = await t.ds.query(
    `SELECT quota, held, requests FROM budget_usage WHERE scope = 'token' AND subject = '${Math.floor(tokenId)}'`,
  );
  expect(rows).toHaveLength(1);
  return { quota: Number(rows[0].quota), held: Number(rows[0].held), requests: Number(rows[0].requests) };
}

async function tokenUsed(t: TestApp, id: number): Promise<number> {
  const rows: Array<Record<string, unknown>> = await t.ds.query(
    `SELECT used_quota FROM tokens WHERE id = ${Math.floor(id)}`,
  );
  return Number(rows[0].used_quota);
}

async function settleAll(nodes: TestApp[]): Promise<void> {
  for (const n of nodes) {
    await settle(n);
    await n.app.get(BudgetService).flush();
  }
}

/**
 * Waves of PARALLEL calls until the cap refuses everything as exhausted. Each refusal is a 429 with
 * Retry-After, "exhausted" only when the charges reached the cap; the spend never passes the cap by
 * more than one call's price (the documented bound); Σ logs = counter = balance change = token used.
 */
async function fillCap(
  nodes: TestApp[],
  userId: number,
  token: { id: number; key: string },
  balance: number,
) {
  const t = nodes[0];
  const answers: Answer[] = [];
  for (let wave = 0; wave < 12; wave++) {
    const batch = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => chat(nodes[i % nodes.length].url, token.key)),
    );
    answers.push(...batch);
    await settleAll(nodes);
    const c = await counter(t, token.id);
    // After every wave: nothing held, and the cap passed by at most one call's price.
    expect(c.held).toBe(0);
    expect(c.quota).toBeLessThanOrEqual(CAP + PRICE);
    if (batch.every((a) => a.status === 429 && a.body.error?.code === 'budget_exhausted')) break;
  }
  const served = answers.filter((a) => a.status === 200);
  for (const a of answers.filter((x) => x.status !== 200)) {
    expect(a.status).toBe(429);
    expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(a.body.error?.type).toBe('rate_limit_error');
    if (a.body.error?.code === 'budget_busy') {
      expect(a.body.error.message).toMatch(
        /^The \d+ left of the token daily budget is held by calls in progress/,
      );
      expect(Number(a.retryAfter)).toBeLessThanOrEqual(5);
    } else {
      expect(a.body.error?.code).toBe('budget_exhausted');
      expect(a.body.error?.message).toMatch(/^Token daily budget exhausted: resets at /);
    }
  }
  const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
  expect(logs.map((l) => l.request_id).sort()).toEqual(served.map((a) => a.requestId).sort());
  const charged = logs.reduce((s, l) => s + l.quota, 0);
  expect(logs.every((l) => l.quota === PRICE)).toBe(true);
  const c = await counter(t, token.id);
  expect(c.quota).toBe(charged);
  expect(c.requests).toBe(served.length);
  expect(balance - (await quotaOf(t, userId))).toBe(charged);
  expect(await tokenUsed(t, token.id)).toBe(charged);
  // The cap is filled (the last refusals were "exhausted") and passed by less than one call's price.
  expect(charged).toBeGreaterThanOrEqual(CAP);
  expect(charged).toBeLessThan(CAP + PRICE);
  return { served: served.length, charged };
}

async function pricesOn(root: ApiClient): Promise<void> {
  await mergeOption(root, 'ModelRatio', { [MODEL]: 10, [RT_MODEL]: 2.5 });
  await mergeOption(root, 'CompletionRatio', { [MODEL]: 1 });
  // Completion tokens a budgeted call without max_tokens is held for: (11 + 300) × 10 a call.
  await putOption(root, 'BudgetOutputTokens', '300');
}

describe('spend ticket: caps that hold (one node)', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let rt: MockRealtime;
  let mj: MockMidjourney;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    rt = await MockRealtime.start();
    mj = await MockMidjourney.start();
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(t);
    await pricesOn(root);
    await putOption(root, 'DrawingEnabled', true);
    await putOption(root, 'ServerAddress', t.url);
    await makeChannel(t, { type: 1, base_url: mock.url, models: MODEL });
    await makeChannel(t, { type: 1, base_url: rt.url, models: RT_MODEL });
    await makeChannel(t, { type: 2, name: 'mj', base_url: mj.url, key: mj.secret, models: 'mj_imagine' });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await rt?.close();
    await mj?.close();
  });

  const fresh = async (balance = 10_000_000) => {
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, balance);
    const token = await makeToken(t, user.userId!);
    return { user, userId: user.userId!, token };
  };

  it('60 parallel calls without max_tokens never pass a quota cap by more than one call, the books exact', async () => {
    const { user, userId, token } = await fresh();
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: CAP } } })).body.success,
    ).toBe(true);
    const r = await fillCap([t], userId, token, 10_000_000);
    expect(r.served).toBe(Math.ceil(CAP / PRICE));
  });

  it('a cap below PreConsumedQuota and the estimate still admits a call, and "exhausted" only once it is used', async () => {
    const { user, token } = await fresh();
    await putOption(root, 'PreConsumedQuota', '500');
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: 510 } } })).body.success,
    ).toBe(true);
    const first = await chat(t.url, token.key);
    expect(first.status).toBe(200);
    await settleAll([t]);
    const next = await chat(t.url, token.key);
    expect(next.status).toBe(429);
    expect(next.body.error?.code).toBe('budget_exhausted');
    expect(Number(next.retryAfter)).toBeGreaterThan(0);
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(86_400);
  });

  it('a fixed-price call that costs more than what is left is told so, not that the budget is exhausted', async () => {
    const { user, token } = await fresh();
    await mergeOption(root, 'ModelPrice', { mj_imagine: 0.1 }); // 50,000 a task
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: 20_000 } } })).body.success,
    ).toBe(true);
    const submitted = mj.requests.filter((r) => r.path.startsWith('/mj/submit')).length;
    const res = await request(t.url)
      .post('/mj/submit/imagine')
      .set('mj-api-secret', token.key)
      .set('accept-language', 'en')
      .send({ prompt: 'a cat' });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.stringify(res.body)).toMatch(
      /This call costs 50000, more than the 20000 left of the token daily budget/,
    );
    expect(mj.requests.filter((r) => r.path.startsWith('/mj/submit')).length).toBe(submitted);
  });

  it('ten response.create at once in one realtime session stay within the cap; only answers received are billed', async () => {
    const { user, userId, token } = await fresh();
    // One response's price, measured by another user without a budget.
    const probe = await fresh();
    const one = await realtimeBurst(t, probe.token.key, 1);
    expect(one.done).toBe(1);
    await settleAll([t]);
    const price = (await logsOf(t, probe.userId)).filter((l) => l.type === 2)[0].quota;
    expect(price).toBeGreaterThan(0);
    const cap = Math.floor(2.5 * price);
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: cap } } })).body.success,
    ).toBe(true);
    const before = await quotaOf(t, userId);
    const conn = rt.connections.length;
    const burst = await realtimeBurst(t, token.key, 10);
    await settleAll([t]);
    const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
    const billed = logs.reduce((s, l) => s + l.quota, 0);
    // Each response admitted was forwarded and answered; each answer billed once; the rest refused.
    const forwarded = rt.connections[conn].events.filter((e) => e.type === 'response.create').length;
    expect(forwarded).toBe(burst.done);
    expect(logs).toHaveLength(burst.done);
    // Every request was answered or refused, unless the cap, once used, ended the session first.
    if (burst.closed === null) expect(burst.done + burst.refused).toBe(10);
    else {
      expect(burst.closed).toBe(1008);
      expect(burst.refusals).toContain('budget_exhausted');
    }
    expect(burst.done).toBeLessThan(10);
    expect(burst.refusals.every((c) => c === 'budget_busy' || c === 'budget_exhausted')).toBe(true);
    expect(billed).toBeLessThanOrEqual(cap + price);
    expect(before - (await quotaOf(t, userId))).toBe(billed);
    const c = await counter(t, token.id);
    expect(c).toEqual({ quota: billed, held: 0, requests: 1 });
  });

  it('token limits apply to realtime sessions: a second session over a concurrency of 1 is refused until the first ends', async () => {
    const { user, token } = await fresh();
    expect((await user.put('/api/token/', { id: token.id, concurrency_limit: 1 })).body.success).toBe(true);
    const first = await openRealtime(t, token.key);
    const second = await handshake(t, token.key);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('1');
    first.close();
    await new Promise((r) => setTimeout(r, 300));
    const third = await openRealtime(t, token.key);
    third.close();
  });

  it('token limits apply to task submissions: a token of one request a minute submits once', async () => {
    const { user, token } = await fresh();
    await mergeOption(root, 'ModelPrice', { mj_imagine: 0.0001 });
    expect((await user.put('/api/token/', { id: token.id, rpm_limit: 1 })).body.success).toBe(true);
    const submit = () =>
      request(t.url).post('/mj/submit/imagine').set('mj-api-secret', token.key).send({ prompt: 'a cat' });
    expect((await submit()).status).toBe(200);
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toMatchObject({ code: 4, description: expect.stringMatching(/1/) });
  });
});

describe('spend ticket: caps that hold (two nodes, one database and Redis)', () => {
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
    await pricesOn(root);
    await makeChannel(a, { type: 1, base_url: mock.url, models: MODEL });
    await b.app.get(RelayCacheService).reloadChannels();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mock?.close();
  });

  it('60 parallel calls without max_tokens over both nodes never pass the cap by more than one call', async () => {
    const user = await makeUser(a, root);
    await setQuota(a, user.userId!, 10_000_000);
    const token = await makeToken(a, user.userId!);
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: CAP } } })).body.success,
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const r = await fillCap([a, b], user.userId!, token, 10_000_000);
    expect(r.served).toBe(Math.ceil(CAP / PRICE));
  });
});

const wsUrl = (t: TestApp) => `${t.url.replace(/^http/, 'ws')}/v1/realtime?model=${RT_MODEL}`;

function openRealtime(t: TestApp, key: string): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl(t), {
    headers: { Authorization: `Bearer ${key}`, 'accept-language': 'en' },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_q, res) => reject(new Error(`unexpected ${res.statusCode}`)));
  });
}

function handshake(t: TestApp, key: string): Promise<{ status: number; retryAfter: string | null }> {
  const ws = new WebSocket(wsUrl(t), { headers: { Authorization: `Bearer ${key}` } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      resolve({ status: 101, retryAfter: null });
    });
    ws.once('unexpected-response', (_q, res) => {
      const h = res.headers['retry-after'];
      resolve({ status: res.statusCode ?? 0, retryAfter: typeof h === 'string' ? h : null });
      res.destroy();
    });
    ws.once('error', reject);
  });
}

/**
 * Opens a session, sends `n` response.create at once, and counts what the client gets back (response.done
 * and error events with their codes) until every one is answered either way, then closes.
 */
async function realtimeBurst(
  t: TestApp,
  key: string,
  n: number,
): Promise<{ done: number; refused: number; refusals: string[]; closed: number | null }> {
  const ws = await openRealtime(t, key);
  let done = 0;
  let closed: number | null = null;
  const refusals: string[] = [];
  const finished = new Promise<void>((resolve) => {
    const check = () => {
      if (done + refusals.length >= n) resolve();
    };
    ws.on('message', (data, binary) => {
      if (binary) return;
      const ev = JSON.parse((data as Buffer).toString('utf8')) as { type: string; error?: { code?: string } };
      if (ev.type === 'response.done') done++;
      if (ev.type === 'error') refusals.push(ev.error?.code ?? '');
      check();
    });
    ws.on('close', (code) => {
      closed = code;
      resolve();
    });
  });
  for (let i = 0; i < n; i++) ws.send(JSON.stringify({ type: 'response.create', response: {} }));
  await finished;
  ws.close();
  await new Promise((r) => setTimeout(r, 100));
  return { done, refused: refusals.length, refusals, closed };
}
