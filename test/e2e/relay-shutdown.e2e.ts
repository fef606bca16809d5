/**
 * Graceful shutdown of a real server process (the built dist/server/src/main.js): on SIGTERM it stops
 * accepting connections, lets the requests in flight finish (a slow answer and a stream), writes every
 * queued charge and consume log, closes the database and exits 0. Afterwards the database holds exactly
 * what the clients were answered: one log per request and a balance lowered by the sum of the logs.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { LogEntry, Token, User } from '../../server/src/database/entities';
import { MockUpstream } from '../mocks/mock-upstream';
import { freshDatabase, FreshDatabase } from '../support/databases';
import { provisionRelay, startServerProcess } from '../support/server-process';
import { startNode, TestApp } from '../support/test-app';

describe('relay: graceful shutdown of the server process', () => {
  let mock: MockUpstream;
  let db: FreshDatabase;
  let child: ChildProcess | undefined;
  let reader: TestApp | undefined;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    db = await freshDatabase();
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await reader?.close();
    await db?.drop();
    await mock?.close();
  });

  it('finishes requests in flight and writes every charge and log before exiting', async () => {
    const START = 5_000_000;
    const server = await startServerProcess({ ...db.env, SHUTDOWN_TIMEOUT: '20' });
    child = server.child;
    const { url } = server;
    const payer = await provisionRelay(url, mock.url, START, 0);
    const key = payer.unlimited.key;

    const chat = (content: string, stream = false) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content }] }),
      });

    // 30 quick requests whose charges sit in the write-behind queue, then two still running at SIGTERM.
    const quick = await Promise.all(
      Array.from({ length: 30 }, (_, i) => chat(`q${i} [[usage=${10 + i},5]]`)),
    );
    expect(quick.map((r) => r.status)).toEqual(Array(30).fill(200));
    await Promise.all(quick.map((r) => r.text()));
    const slow = chat('slow [[slow=1200]] [[usage=100,50]]');
    const stream = chat('stream [[chunks=8]] [[slow=150]] [[usage=7,8]]', true);
    await mock.waitFor(() => mock.open === 2);
    child.kill('SIGTERM');
    const exited = once(child, 'exit');

    const slowRes = await slow;
    expect(slowRes.status).toBe(200);
    expect(((await slowRes.json()) as { usage: unknown }).usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 50,
    });
    const streamRes = await stream;
    expect(streamRes.status).toBe(200);
    const sse = await streamRes.text();
    expect(sse).toContain('w8');
    expect(sse.trim().endsWith('data: [DONE]')).toBe(true);

    // New connections are refused while it drains or after it stopped.
    await expect(fetch(`${url}/api/status`)).rejects.toThrow();

    const [code] = await exited;
    const stderr = server.stderr();
    expect({ code, stderr: stderr.includes('shutdown failed') ? stderr : '' }).toEqual({
      code: 0,
      stderr: '',
    });

    // Read what the process left in the database with a fresh app on the same database.
    reader = await startNode({ db } as TestApp);
    const logs = await reader.ds.getRepository(LogEntry).findBy({ user_id: payer.userId, type: 2 });
    expect(logs).toHaveLength(32);
    const billed = logs.reduce((sum, l) => sum + Number(l.quota), 0);
    expect(billed).toBeGreaterThan(0);
    expect(logs.map((l) => l.prompt_tokens).sort((a, b) => a - b)).toEqual(
      [...Array.from({ length: 30 }, (_, i) => 10 + i), 7, 100].sort((a, b) => a - b),
    );
    const user = await reader.ds.getRepository(User).findOneByOrFail({ id: payer.userId });
    expect(Number(user.quota)).toBe(START - billed);
    expect(Number(user.used_quota)).toBe(billed);
    expect(user.request_count).toBe(32);
    const token = await reader.ds.getRepository(Token).findOneByOrFail({ id: payer.unlimited.id });
    expect(Number(token.used_quota)).toBe(billed);
  });
});

/**
 * Calls cut off: streams still open when SHUTDOWN_TIMEOUT runs out, and a kill -9 with calls in flight.
 * Either way, once the process has stopped (and, after a crash, started again) no reservation is left
 * open and the money adds up: balance change = Σ consume logs = tokens' used quota.
 */
describe('relay: calls cut off by a stop', () => {
  const START = 5_000_000;
  let mock: MockUpstream;
  let db: FreshDatabase;
  const children: ChildProcess[] = [];
  let reader: TestApp | undefined;

  beforeEach(async () => {
    mock = await MockUpstream.start();
    db = await freshDatabase();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await reader?.close();
    reader = undefined;
    await db?.drop();
    await mock?.close();
  });

  const stream = (url: string, key: string, i: number) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: `s${i} [[chunks=200]] [[slow=50]]` }],
      }),
    }).then(
      async (r) => ({ status: r.status, text: await r.text().catch(() => '') }),
      () => ({ status: 0, text: '' }),
    );

  /** What the database says after the stop: every log of the payer, the balances, nothing left open. */
  async function books(payer: Awaited<ReturnType<typeof provisionRelay>>) {
    reader = await startNode({ db } as TestApp);
    const logs = await reader.ds.getRepository(LogEntry).findBy({ user_id: payer.userId });
    const consume = logs.filter((l) => l.type === 2);
    const charged = consume.reduce((s, l) => s + Number(l.quota), 0);
    const user = await reader.ds.getRepository(User).findOneByOrFail({ id: payer.userId });
    const tokens = await reader.ds.getRepository(Token).findBy({ user_id: payer.userId });
    expect(logs.filter((l) => l.content === 'in progress')).toHaveLength(0);
    expect(START - Number(user.quota)).toBe(charged);
    expect(tokens.reduce((s, t) => s + Number(t.used_quota), 0)).toBe(charged);
    return { logs, consume, charged };
  }

  it('streams still open at SHUTDOWN_TIMEOUT are cut, and each is charged for what it delivered before the process exits', async () => {
    const server = await startServerProcess({ ...db.env, SHUTDOWN_TIMEOUT: '2' });
    children.push(server.child);
    // The limited token's balance is too small to be trusted: its calls hold real reservations.
    const payer = await provisionRelay(server.url, mock.url, START, 20_000);
    const open = [
      ...[0, 1, 2].map((i) => stream(server.url, payer.unlimited.key, i)),
      ...[3, 4, 5].map((i) => stream(server.url, payer.limited.key, i)),
    ];
    await mock.waitFor(() => mock.open === 6);
    await new Promise((r) => setTimeout(r, 500));
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const answers = await Promise.all(open);
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const [code] = await exited;
    expect(code).toBe(0);
    const { consume } = await books(payer);
    expect(consume).toHaveLength(6);
    for (const l of consume) {
      expect(JSON.parse(l.other ?? '{}')).toMatchObject({ stream_interrupted: true });
      expect(Number(l.quota)).toBeGreaterThan(0);
    }
  });

  it('after kill -9 the next start refunds the reservations of the calls that were in flight', async () => {
    const first = await startServerProcess({ ...db.env });
    children.push(first.child);
    const payer = await provisionRelay(first.url, mock.url, START, 20_000);
    const open = [0, 1, 2, 3].map((i) => stream(first.url, payer.limited.key, i));
    await mock.waitFor(() => mock.open === 4);
    const killed = once(first.child, 'exit');
    first.child.kill('SIGKILL');
    await killed;
    await Promise.all(open);

    const second = await startServerProcess({ ...db.env });
    children.push(second.child);
    const { logs } = await books(payer);
    // The recovery's note is a log message key, rendered per reader.
    const interrupted = logs.filter(
      (l) =>
        (JSON.parse(l.other || '{}') as { content_i18n?: { key?: string } }).content_i18n?.key ===
        'log_text_call_interrupted',
    );
    expect(interrupted).toHaveLength(4);
    for (const l of interrupted) expect([l.type, Number(l.quota)]).toEqual([5, 0]);
    // The token's remaining quota is whole again: only what served calls cost is gone.
    const token = await reader!.ds.getRepository(Token).findOneByOrFail({ id: payer.limited.id });
    expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(20_000);
  });
});
