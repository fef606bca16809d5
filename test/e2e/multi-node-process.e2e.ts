/**
 * Multi-node mode as deployed: node A (master) and node B (NODE_TYPE=slave, the built
 * dist/server/src/main.js in its own OS process) on one MariaDB or PostgreSQL database and one Redis.
 * A change made through node A (a channel disabled, a user banned, a price changed, a token disabled)
 * is obeyed by node B within a second; model traffic spread over both nodes against one small balance
 * is billed exactly; the sign-in rate limit counts the attempts made on both nodes.
 *
 * A SQLite file is not a database two servers share, so the suite is skipped for the sqlite project.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { currentDriver } from '../support/databases';
import { checkAnswersFrom } from '../support/openapi-check';
import { freePort, MAIN } from '../support/server-process';
import {
  ApiClient,
  putOption,
  REDIS_URL,
  setupRoot,
  startApp,
  TEST_ENV,
  TestApp,
  uname,
} from '../support/test-app';

const describeShared = currentDriver() === 'sqlite' ? describe.skip : describe;

async function waitUp(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`node B exited with ${child.exitCode}: ${stderr()}`);
    try {
      if ((await fetch(`${url}/api/status`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`node B did not come up: ${stderr()}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` passes; fails when it has not within `ms`. Returns the time it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await sleep(20);
  }
  throw new Error(`not within ${ms} ms`);
}

interface Answer {
  status: number;
  requestId: string;
  body: string;
}

async function chat(url: string, key: string, model: string, content = 'hi [[usage=10,5]]'): Promise<Answer> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-oneapi-request-id') ?? '',
    body: await res.text(),
  };
}

describeShared('two server processes on one database and one Redis', () => {
  const prefix = `gh-mn-${randomBytes(4).toString('hex')}`;
  // SYNC_FREQUENCY is an hour so that only the Redis messages can explain what node B sees.
  const shared = {
    REDIS_CONN_STRING: REDIS_URL,
    REDIS_PREFIX: prefix,
    SYNC_FREQUENCY: '3600',
    LOGIN_RATE_LIMIT: '30',
    LOGIN_RATE_LIMIT_WINDOW: '120',
  };
  let mock: MockUpstream;
  let a: TestApp;
  let child: ChildProcess | undefined;
  let stderr = '';
  let bUrl = '';
  let root: ApiClient;

  /** Number of a query's single row and column. */
  async function scalar(sql: string, params: unknown[] = []): Promise<number> {
    const ph =
      currentDriver() === 'postgres'
        ? sql.replace(/\?/g, (_m, i: number) => `$${sql.slice(0, i).split('?').length}`)
        : sql;
    const rows: Array<Record<string, unknown>> = await a.ds.query(ph, params);
    return Number(Object.values(rows[0])[0] ?? 0);
  }

  async function channelId(name: string): Promise<number> {
    return scalar('SELECT id FROM channels WHERE name = ?', [name]);
  }

  async function makeChannel(name: string, key: string, models: string): Promise<number> {
    const res = await root.post('/api/channel/', {
      type: 1,
      name,
      key,
      base_url: mock.url,
      models,
      group: 'default',
    });
    expect(res.body.success).toBe(true);
    return channelId(name);
  }

  /** A user with `quota` on its balance and an unlimited token; the key is returned. */
  async function payer(
    quota: number,
  ): Promise<{ client: ApiClient; userId: number; tokenId: number; key: string }> {
    const username = uname('mn');
    expect((await root.post('/api/user/', { username, password: 'password-1' })).body.success).toBe(true);
    const client = await new ApiClient(a.url).login(username, 'password-1');
    const userId = client.userId!;
    const add = await root.post('/api/user/manage', { id: userId, action: 'add_quota', value: quota });
    expect(add.body.success).toBe(true);
    const tok = await client.post('/api/token/', {
      name: 'mn',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    expect(tok.body.success).toBe(true);
    const tokenId = tok.body.data[0].id as number;
    const key = (await client.post(`/api/token/${tokenId}/key`)).body.data.key as string;
    return { client, userId, tokenId, key };
  }

  /** The charge logged for a request (waits for the node's write-behind flush). */
  async function loggedQuota(requestId: string): Promise<number> {
    for (let i = 0; i < 150; i++) {
      const rows: Array<{ quota: string | number }> = await a.ds.query(
        currentDriver() === 'postgres'
          ? 'SELECT quota FROM logs WHERE request_id = $1 AND type = 2'
          : 'SELECT quota FROM logs WHERE request_id = ? AND type = 2',
        [requestId],
      );
      if (rows.length) return Number(rows[0].quota);
      await sleep(20);
    }
    throw new Error(`no consume log for ${requestId}`);
  }

  beforeAll(async () => {
    if (!existsSync(MAIN))
      throw new Error(`${MAIN} is missing: run npm run build:server (npm test does) first.`);
    mock = await MockUpstream.start();
    a = await startApp({ ...shared, NODE_NAME: 'node-a' });
    const port = await freePort();
    bUrl = `http://127.0.0.1:${port}`;
    checkAnswersFrom(bUrl);
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        ...TEST_ENV,
        ...a.db.env,
        ...shared,
        NODE_TYPE: 'slave',
        NODE_NAME: 'node-b',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    await waitUp(bUrl, child, () => stderr);
    root = await setupRoot(a);
    await putOption(
      root,
      'ModelPrice',
      JSON.stringify({ 'mn-route': 0.001, 'mn-ban': 0.001, 'mn-token': 0.001, 'mn-price': 0.002 }),
    );
    await putOption(root, 'ModelRatio', JSON.stringify({ 'mn-load': 1 }));
    await putOption(root, 'CompletionRatio', JSON.stringify({ 'mn-load': 2 }));
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    await a?.close();
    await mock?.close();
  });

  it('node B is a separate process serving the same database', async () => {
    const status = (await (await fetch(`${bUrl}/api/status`)).json()) as { success: boolean };
    expect(status.success).toBe(true);
    // The root made on A signs in on B: one database.
    const onB = await new ApiClient(bUrl).login('root', 'root-pass-1');
    expect(onB.userId).toBe(root.userId);
    expect(child!.pid).not.toBe(process.pid);
  });

  it('a channel disabled on node A gets no more traffic from node B within a second', async () => {
    const one = await makeChannel('route-one', 'sk-route-one', 'mn-route');
    await makeChannel('route-two', 'sk-route-two', 'mn-route');
    const { key } = await payer(50_000_000);
    const usedOnB = async (n: number): Promise<Set<string | null>> => {
      const seen = new Set<string | null>();
      for (let i = 0; i < n; i++) {
        const before = mock.requests.length;
        const res = await chat(bUrl, key, 'mn-route');
        expect(res.status).toBe(200);
        seen.add(mock.requests[before]?.credential ?? null);
      }
      return seen;
    };
    // Both channels are in use on B (2^-30 chance of a false failure).
    await within(5000, async () => (await usedOnB(5)).has('sk-route-one'));
    expect((await root.put('/api/channel/', { id: one, status: 2 })).body.success).toBe(true);
    await within(1000, async () => !(await usedOnB(8)).has('sk-route-one'));
    expect([...(await usedOnB(20))]).toEqual(['sk-route-two']);
  });

  it('a user banned on node A is refused by node B within a second', async () => {
    await makeChannel('ban-ch', 'sk-ban', 'mn-ban');
    const { userId, key } = await payer(50_000_000);
    expect((await chat(bUrl, key, 'mn-ban')).status).toBe(200);
    const ban = await root.post('/api/user/manage', { id: userId, action: 'disable' });
    expect(ban.body.data.status).toBe(2);
    await within(1000, async () => (await chat(bUrl, key, 'mn-ban')).status !== 200);
    const refused = await chat(bUrl, key, 'mn-ban');
    expect(refused.status).toBe(403);
  });

  it('a price changed on node A is billed by node B within a second', async () => {
    await makeChannel('price-ch', 'sk-price', 'mn-price');
    const { key } = await payer(50_000_000);
    const first = await chat(bUrl, key, 'mn-price');
    expect(first.status).toBe(200);
    expect(await loggedQuota(first.requestId)).toBe(1000); // 0.002 × QuotaPerUnit 500000
    await putOption(
      root,
      'ModelPrice',
      JSON.stringify({ 'mn-route': 0.001, 'mn-ban': 0.001, 'mn-token': 0.001, 'mn-price': 0.004 }),
    );
    const changed = Date.now();
    let billedNewAt = -1;
    while (Date.now() - changed < 1000) {
      const sentAt = Date.now() - changed;
      const res = await chat(bUrl, key, 'mn-price');
      expect(res.status).toBe(200);
      const q = await loggedQuota(res.requestId);
      if (q === 2000) {
        billedNewAt = sentAt;
        break;
      }
      expect(q).toBe(1000);
    }
    expect(billedNewAt).toBeGreaterThanOrEqual(0);
    expect(billedNewAt).toBeLessThan(1000);
    // And it stays at the new price.
    const later = await chat(bUrl, key, 'mn-price');
    expect(await loggedQuota(later.requestId)).toBe(2000);
  });

  it('a token disabled on node A is refused by node B within a second', async () => {
    await makeChannel('token-ch', 'sk-token', 'mn-token');
    const { client, tokenId, key } = await payer(50_000_000);
    expect((await chat(bUrl, key, 'mn-token')).status).toBe(200);
    const off = await client.put('/api/token/?status_only=true', { id: tokenId, status: 2 });
    expect(off.body.success).toBe(true);
    await within(1000, async () => (await chat(bUrl, key, 'mn-token')).status !== 200);
    expect((await chat(bUrl, key, 'mn-token')).status).toBe(401);
  });

  it('traffic spread over both nodes against one small balance is billed to the unit', async () => {
    await makeChannel('load-ch', 'sk-load', 'mn-load');
    const START = 20_000;
    const { userId, key } = await payer(START);
    // 100 prompt + 50 completion tokens at ratio 1, completion ratio 2: 200 per request, and each
    // holds PreConsumedQuota (500) and more while in flight, so the balance runs out under this load.
    // In waves of 20 concurrent calls (10 per node): which node wins a contested balance is arbitrary
    // (a node's reserves for one user commit as a group), so the first wave, which the balance covers,
    // makes sure both nodes serve some; the later ones run the balance out.
    const N = 120;
    const WAVE = 20;
    const answers: Array<Awaited<ReturnType<typeof chat>>> = [];
    for (let w = 0; w < N / WAVE; w++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: WAVE }, (_, j) => {
            const i = w * WAVE + j;
            return chat(i % 2 ? bUrl : a.url, key, 'mn-load', `load ${i} [[usage=100,50]]`);
          }),
        )),
      );
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    // Refusals are the balance running out, never a server error.
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([403]));
    // Both nodes served some of it.
    const servedBy = (url: string) =>
      answers.filter((r, i) => r.status === 200 && (i % 2 ? bUrl : a.url) === url).length;
    expect(servedBy(a.url)).toBeGreaterThan(0);
    expect(servedBy(bUrl)).toBeGreaterThan(0);

    // A flushes on demand; B within its write-behind window.
    await a.app.get(QuotaLedgerService).flush();
    const logs = () => scalar('SELECT COUNT(*) FROM logs WHERE user_id = ? AND type = 2', [userId]);
    await within(5000, async () => (await logs()) === ok.length);
    await sleep(400);
    expect(await logs()).toBe(ok.length);

    const logged = await scalar('SELECT COALESCE(SUM(quota), 0) FROM logs WHERE user_id = ? AND type = 2', [
      userId,
    ]);
    const balance = await scalar('SELECT quota FROM users WHERE id = ?', [userId]);
    const used = await scalar('SELECT used_quota FROM users WHERE id = ?', [userId]);
    const count = await scalar('SELECT request_count FROM users WHERE id = ?', [userId]);
    expect(logged).toBe(ok.length * 200);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(START - balance).toBe(logged);
    expect(used).toBe(logged);
    expect(count).toBe(ok.length);

    // Each node wrote its own consume logs and dashboard rows, under its NODE_NAME.
    const byNode: Array<{ node_name: string; n: string | number }> = await a.ds.query(
      `SELECT node_name, COUNT(*) AS n FROM logs WHERE user_id = ${userId} AND type = 2 GROUP BY node_name ORDER BY node_name`,
    );
    expect(byNode.map((r) => [r.node_name, Number(r.n)])).toEqual([
      ['node-a', servedBy(a.url)],
      ['node-b', servedBy(bUrl)],
    ]);
    const stats: Array<{ node_name: string; q: string | number; c: string | number }> = await a.ds.query(
      `SELECT node_name, SUM(quota) AS q, SUM(count) AS c FROM quota_data WHERE user_id = ${userId} GROUP BY node_name ORDER BY node_name`,
    );
    expect(stats.map((r) => [r.node_name, Number(r.c)])).toEqual([
      ['node-a', servedBy(a.url)],
      ['node-b', servedBy(bUrl)],
    ]);
    expect(stats.reduce((s, r) => s + Number(r.q), 0)).toBe(logged);
  });

  it('the sign-in rate limit counts the attempts made on both nodes', async () => {
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
    const onA = new ApiClient(a.url);
    const onB = new ApiClient(bUrl);
    onA.ip = ip;
    onB.ip = ip;
    // 30 attempts per window, 15 on each node: none refused...
    for (let i = 0; i < 30; i++) {
      const res = await (i % 2 ? onB : onA).post('/api/user/login', {
        username: 'root',
        password: 'wrong-pass-1',
      });
      expect(res.status).not.toBe(429);
    }
    // ...and the 31st is refused by either node, though neither has seen 30 on its own.
    expect((await onA.post('/api/user/login', { username: 'root', password: 'wrong-pass-1' })).status).toBe(
      429,
    );
    expect((await onB.post('/api/user/login', { username: 'root', password: 'root-pass-1' })).status).toBe(
      429,
    );
    // Another address is not affected.
    const other = new ApiClient(bUrl);
    other.ip = '10.254.254.1';
    expect((await other.post('/api/user/login', { username: 'root', password: 'root-pass-1' })).status).toBe(
      200,
    );
  });
});
