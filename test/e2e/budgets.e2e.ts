/**
 * Periodic budgets: quota and request caps per day, week and month on a token, a user and a group, in
 * the operator's time zone. Admission is conditional (charged + held + this call's reservation within
 * the cap), a served call counts in full, the next one is refused with 429 in the caller's format
 * naming the scope, the period and when it resets. Exact under 120 calls at once, on one node and on
 * two sharing the database and Redis; every route that spends is refused; periods roll over on the
 * injected clock.
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import WebSocket from 'ws';
import { periodBounds } from '../../server/src/common/calendar';
import { BudgetUsage } from '../../server/src/database/entities';
import { BudgetService, localTime } from '../../server/src/modules/budget/budget.service';
import { RelayCacheService } from '../../server/src/modules/relay/relay-cache.service';
import { MockMidjourney } from '../mocks/midjourney';
import { MockUpstream } from '../mocks/mock-upstream';
import { MockRealtime } from '../mocks/realtime';
import { MockSuno } from '../mocks/suno';
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

const ZONE = 'Asia/Shanghai';
const CALLS = 120;
/** gpt-4o-mini at a fixed price in these tests: 0.0001 × 500000 = 50 a call (its hold is its charge). */
const FIXED = 50;
/** gpt-4o with the default ratios: (10 + 5 × 4) × 1.25. */
const FULL = 38;
const RT_MODEL = 'gpt-4o-realtime-preview';

interface Answer {
  status: number;
  requestId: string;
  text: string;
}

async function chat(url: string, key: string, model = 'gpt-4o-mini', stream = false): Promise<Answer> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-oneapi-request-id') ?? '',
    text: await res.text(),
  };
}

function burst(urls: string[], key: string, model = 'gpt-4o-mini'): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: CALLS }, (_, i) => chat(urls[i % urls.length], key, model, i % 2 === 0)),
  );
}

/** Merges entries into a JSON option (the defaults stay). */
async function mergeOption(root: ApiClient, key: string, entries: Record<string, unknown>): Promise<void> {
  const res = await root.get('/api/option/');
  const item = (res.body.data as Array<{ key: string; value: string }>).find((o) => o.key === key);
  const current = JSON.parse(item?.value || '{}') as Record<string, unknown>;
  await putOption(root, key, JSON.stringify({ ...current, ...entries }));
}

async function counters(t: TestApp, scope: string, subject: string | number) {
  const rows: Array<Record<string, unknown>> = await t.ds.query(
    `SELECT period, period_start, quota, requests FROM budget_usage WHERE scope = '${scope}' AND subject = '${String(subject)}' ORDER BY period_start, period`,
  );
  return rows.map((r) => ({
    period: String(r.period),
    start: Number(r.period_start),
    quota: Number(r.quota),
    requests: Number(r.requests),
  }));
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

const resets = (now: number, period: 'day' | 'week' | 'month') =>
  localTime(ZONE, periodBounds(ZONE, now, period).end);

/**
 * After a burst against one token budget: exactly `expected` served (when given), each with one consume
 * log; Σ logs = the period's counter = the balance change = the token's used-quota change; the
 * counter's requests = the calls served; the refused ones got 429 budget_exhausted.
 */
async function checkBurst(
  nodes: TestApp[],
  userId: number,
  token: { id: number },
  balance: number,
  answers: Answer[],
  message: RegExp,
): Promise<{ served: number; charged: number; counter: { quota: number; requests: number } }> {
  await settleAll(nodes);
  const t = nodes[0];
  const served = answers.filter((a) => a.status === 200);
  for (const a of answers.filter((x) => x.status !== 200)) {
    expect(a.status).toBe(429);
    const err = JSON.parse(a.text).error;
    expect(err.type).toBe('rate_limit_error');
    // Refused while calls in flight held the rest ("busy"), or once the cap was used ("exhausted").
    if (err.code === 'budget_busy')
      expect(err.message).toMatch(/is held by calls in progress: retry in a moment$/);
    else {
      expect(err.code).toBe('budget_exhausted');
      expect(err.message).toMatch(message);
    }
  }
  const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
  expect(logs.map((l) => l.request_id).sort()).toEqual(served.map((a) => a.requestId).sort());
  const charged = logs.reduce((s, l) => s + l.quota, 0);
  const rows = await counters(t, 'token', token.id);
  expect(rows).toHaveLength(1);
  expect(rows[0].quota).toBe(charged);
  expect(rows[0].requests).toBe(served.length);
  expect(balance - (await quotaOf(t, userId))).toBe(charged);
  expect(await tokenUsed(t, token.id)).toBe(charged);
  return { served: served.length, charged, counter: rows[0] };
}

describe('periodic budgets (one node)', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let rt: MockRealtime;
  let mj: MockMidjourney;
  let suno: MockSuno;
  let root: ApiClient;
  let budgets: BudgetService;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    rt = await MockRealtime.start();
    mj = await MockMidjourney.start();
    suno = await MockSuno.start();
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(t);
    budgets = t.app.get(BudgetService);
    await putOption(root, 'TimeZone', ZONE);
    await putOption(root, 'PreConsumedQuota', '0');
    await putOption(root, 'DrawingEnabled', true);
    await putOption(root, 'ServerAddress', t.url);
    await mergeOption(root, 'ModelPrice', { 'gpt-4o-mini': 0.0001 });
    await mergeOption(root, 'ModelRatio', { [RT_MODEL]: 2.5 });
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' });
    await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-sonnet-4' });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'gemini-2.0-flash' });
    await makeChannel(t, { type: 1, base_url: rt.url, models: RT_MODEL });
    await makeChannel(t, { type: 2, name: 'mj', base_url: mj.url, key: mj.secret, models: 'mj_imagine' });
    await makeChannel(t, { type: 36, name: 'suno', base_url: suno.url, key: suno.key, models: 'suno_music' });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await rt?.close();
    await mj?.close();
    await suno?.close();
  });
  afterEach(() => {
    budgets.now = () => Math.floor(Date.now() / 1000);
  });

  const fresh = async (balance = 1_000_000) => {
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, balance);
    const token = await makeToken(t, user.userId!);
    return { user, userId: user.userId!, token };
  };
  const setTokenBudget = async (user: ApiClient, id: number, budget: unknown) => {
    const res = await user.put('/api/token/', { id, budget });
    expect(res.body).toMatchObject({ success: true, data: { budget } });
  };

  it('a quota cap whose calls hold their full price admits exactly the calls that fit, out of 120 at once', async () => {
    const { user, userId, token } = await fresh();
    await setTokenBudget(user, token.id, { day: { quota: 1000, requests: 0 } });
    const answers = await burst([t.url], token.key);
    const now = Math.floor(Date.now() / 1000);
    const r = await checkBurst(
      [t],
      userId,
      token,
      1_000_000,
      answers,
      /^Token daily budget exhausted: resets at \d{4}-\d\d-\d\d 00:00 \(Asia\/Shanghai\)$/,
    );
    expect(r.served).toBe(1000 / FIXED);
    expect(r.charged).toBe(1000);
    // Once the holds are settled the cap is used: the refusal says so, and when it resets.
    const next = await chat(t.url, token.key);
    expect(next.status).toBe(429);
    expect(JSON.parse(next.text).error.message).toBe(
      `Token daily budget exhausted: resets at ${resets(now, 'day')} (${ZONE})`,
    );
    // The view: used, remaining, the reset.
    const view = await user.get(`/api/budget/token?ids=${token.id}`);
    expect(view.body.data[String(token.id)].periods).toEqual([
      expect.objectContaining({
        period: 'day',
        quota_cap: 1000,
        quota_used: 1000,
        quota_remaining: 0,
        requests_used: 20,
        request_cap: 0,
        requests_remaining: null,
        zone: ZONE,
      }),
    ]);
  });

  it('a call given the last of a cap counts in full, past the cap by less than its price, and the next call is refused', async () => {
    const { user, userId, token } = await fresh();
    // gpt-4o without max_tokens is held for BudgetOutputTokens completion tokens, cut to what is left;
    // it is charged 38, so the call given the last few units passes the cap by less than 38.
    await setTokenBudget(user, token.id, { week: { quota: 500, requests: 0 } });
    const answers: Answer[] = [];
    for (let i = 0; i < 20; i++) {
      const a = await chat(t.url, token.key, 'gpt-4o');
      answers.push(a);
      await settleAll([t]);
      if (a.status === 429) break;
    }
    const r = await checkBurst(
      [t],
      userId,
      token,
      1_000_000,
      answers,
      /^Token weekly budget exhausted: resets at .+ 00:00 \(Asia\/Shanghai\)$/,
    );
    expect(r.served).toBe(Math.ceil(500 / FULL));
    expect(r.charged).toBe(r.served * FULL);
    expect(r.charged).toBeGreaterThanOrEqual(500);
    expect(r.charged).toBeLessThan(500 + FULL);
    expect(answers.at(-1)!.status).toBe(429);
    expect(JSON.parse(answers.at(-1)!.text).error.code).toBe('budget_exhausted');
  });

  it('a request cap admits exactly that many calls out of 120 at once', async () => {
    const { user, userId, token } = await fresh();
    await setTokenBudget(user, token.id, { month: { quota: 0, requests: 7 } });
    const answers = await burst([t.url], token.key);
    const r = await checkBurst(
      [t],
      userId,
      token,
      1_000_000,
      answers,
      /^Token monthly request limit of 7 reached: resets at \d{4}-\d\d-01 00:00 \(Asia\/Shanghai\)$/,
    );
    expect(r.served).toBe(7);
    expect(r.charged).toBe(7 * FIXED);
  });

  it('a failed call gives its hold and its request back', async () => {
    const { user, userId, token } = await fresh();
    await setTokenBudget(user, token.id, { day: { quota: 100, requests: 2 } });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: '[[status=500]] fail' }],
      }),
    });
    expect(res.status).toBe(500);
    await settleAll([t]);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: 0, requests: 0 }),
    ]);
    expect((await chat(t.url, token.key)).status).toBe(200);
    expect((await chat(t.url, token.key)).status).toBe(200);
    expect((await chat(t.url, token.key)).status).toBe(429);
    await settleAll([t]);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: 100, requests: 2 }),
    ]);
    expect(1_000_000 - (await quotaOf(t, userId))).toBe(100);
  });

  it('periods roll over at midnight, on Monday and on the 1st in the operator zone (clock injected)', async () => {
    const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    const cases: Array<{
      period: 'day' | 'week' | 'month';
      before: string;
      after: string;
      budget: object;
      fits: number;
      message: string;
    }> = [
      // 2026-11-25 23:59:30 and 2026-11-26 00:00:30 in Shanghai (UTC+8)
      {
        period: 'day',
        before: '2026-11-25T15:59:30Z',
        after: '2026-11-25T16:00:30Z',
        budget: { day: { quota: 0, requests: 2 } },
        fits: 2,
        message: `Token daily request limit of 2 reached: resets at 2026-11-26 00:00 (${ZONE})`,
      },
      // Sunday 2026-11-29 23:59:30 → Monday 2026-11-30 00:00:30
      {
        period: 'week',
        before: '2026-11-29T15:59:30Z',
        after: '2026-11-29T16:00:30Z',
        budget: { week: { quota: 100, requests: 0 } },
        fits: 2,
        message: `Token weekly budget exhausted: resets at 2026-11-30 00:00 (${ZONE})`,
      },
      // 2026-11-30 23:59:30 → 2026-12-01 00:00:30
      {
        period: 'month',
        before: '2026-11-30T15:59:30Z',
        after: '2026-11-30T16:00:30Z',
        budget: { month: { quota: 50, requests: 0 } },
        fits: 1,
        message: `Token monthly budget exhausted: resets at 2026-12-01 00:00 (${ZONE})`,
      },
    ];
    for (const c of cases) {
      const { user, token } = await fresh();
      await setTokenBudget(user, token.id, c.budget);
      budgets.now = () => at(c.before);
      for (let i = 0; i < c.fits; i++) expect((await chat(t.url, token.key)).status).toBe(200);
      const refused = await chat(t.url, token.key);
      expect([c.period, refused.status]).toEqual([c.period, 429]);
      expect(JSON.parse(refused.text).error.message).toBe(c.message);
      budgets.now = () => at(c.after);
      expect([c.period, (await chat(t.url, token.key)).status]).toEqual([c.period, 200]);
      await settleAll([t]);
      const rows = await counters(t, 'token', token.id);
      expect(rows.map((r) => [r.start, r.requests])).toEqual([
        [periodBounds(ZONE, at(c.before), c.period).start, c.fits],
        [periodBounds(ZONE, at(c.after), c.period).start, 1],
      ]);
      expect(periodBounds(ZONE, at(c.after), c.period).start).toBe(
        periodBounds(ZONE, at(c.before), c.period).end,
      );
    }
  });

  it('every route that spends is refused over a user budget, in its own format, charging nothing', async () => {
    const { user, userId, token } = await fresh();
    const set = await root.put('/api/user/', { id: userId, budget: { day: { quota: 0, requests: 1 } } });
    expect(set.body).toMatchObject({ success: true, data: { budget: { day: { quota: 0, requests: 1 } } } });
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    const balance = await quotaOf(t, userId);
    const logCount = (await logsOf(t, userId)).length;
    const message = `User daily request limit of 1 reached: resets at ${resets(Math.floor(Date.now() / 1000), 'day')} (${ZONE})`;

    const openai = await chat(t.url, token.key);
    expect(openai.status).toBe(429);
    expect(JSON.parse(openai.text)).toEqual({
      error: { message, type: 'rate_limit_error', param: null, code: 'budget_exhausted' },
    });

    const anthropic = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', token.key)
      .set('accept-language', 'en')
      .send({ model: 'claude-sonnet-4', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(anthropic.status).toBe(429);
    expect(anthropic.body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message } });

    const gemini = await request(t.url)
      .post('/v1beta/models/gemini-2.0-flash:generateContent')
      .set('x-goog-api-key', token.key)
      .set('accept-language', 'en')
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gemini.status).toBe(429);
    expect(gemini.body).toEqual({ error: { code: 429, message, status: 'RESOURCE_EXHAUSTED' } });

    const realtime = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/realtime?model=${RT_MODEL}`, {
        headers: { Authorization: `Bearer ${token.key}`, 'accept-language': 'en' },
      });
      ws.once('open', () => {
        ws.terminate();
        resolve({ status: 101, body: null });
      });
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      ws.once('error', reject);
    });
    expect(realtime).toEqual({
      status: 429,
      body: { error: { message, type: 'rate_limit_error', param: null, code: 'budget_exhausted' } },
    });

    const midjourney = await request(t.url)
      .post('/mj/submit/imagine')
      .set('mj-api-secret', token.key)
      .set('accept-language', 'en')
      .send({ prompt: 'a cat' });
    expect(midjourney.status).toBe(429);
    expect(midjourney.body).toMatchObject({ code: 4, description: message, result: null });

    const sunoRes = await request(t.url)
      .post('/suno/submit/music')
      .set('Authorization', `Bearer ${token.key}`)
      .set('accept-language', 'en')
      .send({ prompt: 'a song', mv: 'chirp-v3-5' });
    expect(sunoRes.status).toBe(429);
    expect(sunoRes.body).toEqual({ code: 'budget_exhausted', message, data: null });

    const playground = await user
      .post('/pg/chat/completions', {
        model: 'gpt-4o-mini',
        group: 'default',
        messages: [{ role: 'user', content: 'hi' }],
      })
      .set('accept-language', 'en');
    expect(playground.status).toBe(429);
    expect(playground.body.error).toMatchObject({ message, code: 'budget_exhausted' });

    await settleAll([t]);
    expect(await quotaOf(t, userId)).toBe(balance);
    expect(await logsOf(t, userId)).toHaveLength(logCount);
    expect(await counters(t, 'user', userId)).toEqual([
      expect.objectContaining({ period: 'day', quota: FIXED, requests: 1 }),
    ]);
    expect(mj.requests).toHaveLength(0);
    expect(suno.requests).toHaveLength(0);
  });

  it('a budget admits the Midjourney, Suno, realtime and playground calls that fit and counts them', async () => {
    const { user, userId, token } = await fresh();
    await root.put('/api/user/', { id: userId, budget: { day: { quota: 0, requests: 4 } } });
    const mjRes = await request(t.url)
      .post('/mj/submit/imagine')
      .set('mj-api-secret', token.key)
      .send({ prompt: 'a cat' });
    expect(mjRes.status).toBe(200);
    const sunoRes = await request(t.url)
      .post('/suno/submit/music')
      .set('Authorization', `Bearer ${token.key}`)
      .send({ prompt: 'a song', mv: 'chirp-v3-5' });
    expect(sunoRes.status).toBe(200);
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/realtime?model=${RT_MODEL}`, {
      headers: { Authorization: `Bearer ${token.key}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_q, res) => reject(new Error(`unexpected ${res.statusCode}`)));
    });
    ws.close();
    const pg = await user.post('/pg/chat/completions', {
      model: 'gpt-4o-mini',
      group: 'default',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(pg.status).toBe(200);
    expect((await chat(t.url, token.key)).status).toBe(429);
    await settleAll([t]);
    expect(await counters(t, 'user', userId)).toEqual([
      expect.objectContaining({ period: 'day', requests: 4 }),
    ]);
  });

  it('a realtime response that fills a quota budget counts in full and ends the session; the next one is refused', async () => {
    const { user, userId, token } = await fresh();
    await setTokenBudget(user, token.id, { day: { quota: 100, requests: 0 } });
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/realtime?model=${RT_MODEL}`, {
      headers: { Authorization: `Bearer ${token.key}`, 'accept-language': 'en' },
    });
    const events: Array<{ type: string; error?: { code?: string; message?: string } }> = [];
    ws.on('message', (data, binary) => {
      if (!binary) events.push(JSON.parse((data as Buffer).toString('utf8')) as (typeof events)[number]);
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'response.create', response: {} }));
    expect(await closed).toBe(1008);
    const error = events.find((e) => e.type === 'error');
    expect(error?.error).toMatchObject({ code: 'budget_exhausted' });
    expect(error?.error?.message).toMatch(/^Token daily budget exhausted: resets at .+ \(Asia\/Shanghai\)$/);
    expect(events.some((e) => e.type === 'response.done')).toBe(true);
    await settleAll([t]);
    const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBeGreaterThan(100);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: logs[0].quota, requests: 1 }),
    ]);
    const again = await new Promise<number>((resolve, reject) => {
      const next = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/realtime?model=${RT_MODEL}`, {
        headers: { Authorization: `Bearer ${token.key}` },
      });
      next.once('open', () => {
        next.terminate();
        resolve(101);
      });
      next.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      next.once('error', reject);
    });
    expect(again).toBe(429);
  });

  it('a group budget is shared by every call served in the group, and others are not touched', async () => {
    await mergeOption(root, 'GroupBudgets', { vip: { day: { quota: 0, requests: 3 } } });
    const a = await fresh();
    const b = await fresh();
    const va = await makeToken(t, a.userId, { group: 'vip' });
    const vb = await makeToken(t, b.userId, { group: 'vip' });
    expect((await chat(t.url, va.key)).status).toBe(200);
    expect((await chat(t.url, vb.key)).status).toBe(200);
    expect((await chat(t.url, va.key)).status).toBe(200);
    const refused = await chat(t.url, vb.key);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toBe(
      `Group vip daily request limit of 3 reached: resets at ${resets(Math.floor(Date.now() / 1000), 'day')} (${ZONE})`,
    );
    // The same users in their own group are not capped by it.
    expect((await chat(t.url, b.token.key)).status).toBe(200);
    const view = await root.get('/api/budget/group');
    expect(view.body.data.vip.periods[0]).toMatchObject({
      period: 'day',
      request_cap: 3,
      requests_used: 3,
      requests_remaining: 0,
    });
    await putOption(root, 'GroupBudgets', '{}');
  });

  it('the hold of a relay call interrupted by a stop is given back at the next start; settled calls leave none', async () => {
    const { user, userId, token } = await fresh();
    const budget = { day: { quota: 200, requests: 3 } };
    await setTokenBudget(user, token.id, budget);
    const holds = async () => {
      const rows: Array<{ n: string | number }> = await t.ds.query('SELECT COUNT(*) AS n FROM budget_holds');
      return Number(rows[0].n);
    };
    expect((await chat(t.url, token.key)).status).toBe(200);
    const failed = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: '[[status=500]] fail' }],
      }),
    });
    expect(failed.status).toBe(500);
    await settleAll([t]);
    expect(await holds()).toBe(0);
    // A call admitted when the process stopped: its hold was written with its admission.
    const party = {
      token: { id: token.id, budget },
      user: { id: userId, budget: null } as never,
      group: 'default',
    };
    const hold = await budgets.admit(party, () => FIXED, { durable: true, exact: true });
    expect(hold?.id).toEqual(expect.any(Number));
    expect(await holds()).toBe(1);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: 2 * FIXED, requests: 2 }),
    ]);
    expect(await budgets.recoverInterrupted(Math.floor(Date.now() / 1000) + 1)).toBe(1);
    expect(await holds()).toBe(0);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: FIXED, requests: 1 }),
    ]);
    // Given back once: a second pass and a late settlement of the same hold change nothing.
    expect(await budgets.recoverInterrupted(Math.floor(Date.now() / 1000) + 1)).toBe(0);
    budgets.release(hold);
    await budgets.flush();
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: FIXED, requests: 1 }),
    ]);
  });

  it('a counter row removed by hand is created again: the next call is admitted and counted', async () => {
    const { user, token } = await fresh();
    await setTokenBudget(user, token.id, { day: { quota: 0, requests: 5 } });
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    await t.ds.query(`DELETE FROM budget_usage WHERE scope = 'token' AND subject = '${token.id}'`);
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    expect(await counters(t, 'token', token.id)).toEqual([
      expect.objectContaining({ quota: FIXED, requests: 1 }),
    ]);
  });

  it('the master’s purge drops counters of periods that ended more than 400 days ago, and keeps the rest', async () => {
    const subject = `purge-${Date.now()}`;
    const now = 1_800_000_000;
    const day = 86_400;
    const row = (period: string, start: number) =>
      t.ds.getRepository(BudgetUsage).insert({
        scope: 'token',
        subject,
        period,
        period_start: start,
        quota: 7,
        requests: 1,
        updated_at: start,
      });
    // Back-dated rows: just past the retention (the period's longest length plus 400 days), and just within.
    await row('day', now - 402 * day);
    await row('day', now - 400 * day);
    await row('week', now - 408 * day);
    await row('week', now - 406 * day);
    await row('month', now - 432 * day);
    await row('month', now - 430 * day);
    await row('month', now - 5 * day);
    const purged = await t.app.get(BudgetService).purgeUsage(now);
    expect(purged).toBeGreaterThanOrEqual(3);
    expect((await counters(t, 'token', subject)).map((c) => [c.period, (now - c.start) / day])).toEqual([
      ['month', 430],
      ['week', 406],
      ['day', 400],
      ['month', 5],
    ]);
    // Nothing left to purge: a second run deletes nothing of these.
    await t.app.get(BudgetService).purgeUsage(now);
    expect(await counters(t, 'token', subject)).toHaveLength(4);
    await t.ds.getRepository(BudgetUsage).delete({ subject });
  });

  it('refuses bad budgets with a clear message and changes nothing; only admins set user and group budgets', async () => {
    const { user, userId, token } = await fresh();
    await setTokenBudget(user, token.id, { day: { quota: 10, requests: 0 } });
    const bad: Array<[unknown, string]> = [
      [{ day: { quota: -1 } }, 'budget.day.quota'],
      [{ day: { quota: 1.5 } }, 'budget.day.quota'],
      [{ day: { requests: '5' } }, 'budget.day.requests'],
      [{ hour: { quota: 1 } }, 'hour'],
      [{ day: { dollars: 1 } }, 'dollars'],
      ['10', 'budget'],
      [[1], 'budget'],
    ];
    for (const [budget, named] of bad) {
      const res = await user
        .put('/api/token/', { id: token.id, name: 'renamed', budget })
        .set('accept-language', 'en');
      expect([budget, res.body.success]).toEqual([budget, false]);
      expect(res.body.message).toContain(named);
      const created = await user.post('/api/token/', { name: 'x', budget }).set('accept-language', 'en');
      expect(created.body.success).toBe(false);
      const admin = await root.put('/api/user/', { id: userId, budget }).set('accept-language', 'en');
      expect(admin.body.success).toBe(false);
      expect(admin.body.message).toContain(named);
    }
    const zh = await user
      .put('/api/token/', { id: token.id, budget: { day: { quota: -1 } } })
      .set('accept-language', 'zh');
    expect(zh.body.message).toBe(
      `budget.day.quota 必须是 0 到 ${Number.MAX_SAFE_INTEGER} 之间的整数（0 表示不限制）`,
    );
    const got = await user.get(`/api/token/${token.id}`);
    expect(got.body.data).toMatchObject({ name: 'test token', budget: { day: { quota: 10, requests: 0 } } });
    expect((await root.get(`/api/user/${userId}`)).body.data.budget).toBeNull();
    const option = await root.put('/api/option/', {
      key: 'GroupBudgets',
      value: JSON.stringify({ vip: { day: { quota: -5 } } }),
    });
    expect(option.body.success).toBe(false);

    // Users do not set their own user budget or read other people's.
    expect((await user.get('/api/budget/group')).status).toBe(403);
    expect((await user.get(`/api/budget/user/${userId}`)).status).toBe(403);
    const other = await fresh();
    const peek = await other.user.get(`/api/budget/token?ids=${token.id}`);
    expect(peek.body).toMatchObject({ success: true, data: {} });
    const self = await user.get('/api/budget/self');
    expect(self.body.data).toMatchObject({
      zone: ZONE,
      user: { budget: null, periods: [] },
      group: { name: 'default', budget: null },
    });
    // Cleared with null.
    await setTokenBudget(user, token.id, null);
  });
});

describe('periodic budgets (two nodes, one database and Redis)', () => {
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
    await putOption(root, 'TimeZone', ZONE);
    await putOption(root, 'PreConsumedQuota', '0');
    await mergeOption(root, 'ModelPrice', { 'gpt-4o-mini': 0.0001 });
    await makeChannel(a, { type: 1, base_url: mock.url, models: 'gpt-4o,gpt-4o-mini' });
    await b.app.get(RelayCacheService).reloadChannels();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mock?.close();
  });

  it.each([
    ['quota', { day: { quota: 1500, requests: 0 } }, 1500 / FIXED],
    ['requests', { day: { quota: 0, requests: 11 } }, 11],
  ])(
    'a %s cap holds across both nodes: exactly the calls that fit, Σ logs = counter = balance change',
    async (_kind, budget, fits) => {
      const user = await makeUser(a, root);
      await setQuota(a, user.userId!, 1_000_000);
      const token = await makeToken(a, user.userId!);
      expect((await user.put('/api/token/', { id: token.id, budget })).body.success).toBe(true);
      // Both nodes know the new user and token (and its budget) before the burst.
      await new Promise((r) => setTimeout(r, 300));
      const answers = await burst([a.url, b.url], token.key);
      const r = await checkBurst(
        [a, b],
        user.userId!,
        token,
        1_000_000,
        answers,
        /^Token daily (budget exhausted|request limit of 11 reached): resets at/,
      );
      expect(r.served).toBe(fits);
    },
  );
});

/**
 * The notice past BudgetNoticePercent: a signed webhook to the user's own address (HTTPS, with a
 * certificate the gateway trusts through OUTBOUND_CA_FILE), once per counter.
 */
describe('budget notice by webhook', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let dir: string;
  let hooks: HttpsServer;
  const received: Array<{ body: string; signature: string | undefined }> = [];

  beforeAll(async () => {
    mock = await MockUpstream.start();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-budget-hook-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1']
        .concat(['-addext', 'subjectAltName=IP:127.0.0.1'])
        .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    hooks = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({ body, signature: req.headers['x-webhook-signature'] as string | undefined });
          res.end('ok');
        });
      },
    );
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOUND_CA_FILE: join(dir, 'cert.pem') });
    const root = await setupRoot(t);
    await putOption(root, 'TimeZone', ZONE);
    await putOption(root, 'PreConsumedQuota', '0');
    await mergeOption(root, 'ModelPrice', { 'gpt-4o-mini': 0.0001 });
    await putOption(root, 'BudgetNoticePercent', '50');
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o,gpt-4o-mini' });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await new Promise((r) => hooks?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the user once when a quota budget passes the threshold', async () => {
    const root = await new ApiClient(t.url).login('root', 'root-pass-1');
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, 1_000_000);
    const saved = await user.put('/api/user/setting', {
      notify_type: 'webhook',
      webhook_url: `https://127.0.0.1:${(hooks.address() as AddressInfo).port}/budget`,
      webhook_secret: 'whsec-budget',
    });
    expect(saved.body.success).toBe(true);
    const token = await makeToken(t, user.userId!);
    expect(
      (await user.put('/api/token/', { id: token.id, budget: { day: { quota: 200, requests: 0 } } })).body
        .success,
    ).toBe(true);
    // 50 of 200: below the threshold, no notice.
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toHaveLength(0);
    // 100 of 200: the notice; 150 of 200: no second one for the same counter.
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    expect((await chat(t.url, token.key)).status).toBe(200);
    await settleAll([t]);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0].body) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'budget_notice', values: ['token', 'day', 50] });
    expect(body.content).toContain('Token daily budget is 50% used: 100 of 200');
    expect(received[0].signature).toBe(
      createHmac('sha256', 'whsec-budget').update(received[0].body).digest('hex'),
    );
  });
});
