/**
 * Graceful shutdown of a real server process (the built dist/server/src/main.js): on SIGTERM it stops
 * accepting connections, lets the requests in flight finish (a slow answer and a stream), writes every
 * queued charge and consume log, closes the database and exits 0. Afterwards the database holds exactly
 * what the clients were answered: one log per request and a balance lowered by the sum of the logs.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { LogEntry, Token, User } from '../../server/src/database/entities';
import { MockUpstream } from '../mocks/mock-upstream';
import { freshDatabase, FreshDatabase } from '../support/databases';
import { ApiClient, startNode, TEST_ENV, TestApp } from '../support/test-app';

const MAIN = join(__dirname, '../../dist/server/src/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${url}/api/status`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not come up');
}

describe('relay: graceful shutdown of the server process', () => {
  let mock: MockUpstream;
  let db: FreshDatabase;
  let child: ChildProcess | undefined;
  let reader: TestApp | undefined;
  let stderr = '';

  beforeAll(async () => {
    if (!existsSync(MAIN))
      throw new Error(`${MAIN} is missing: run npm run build:server (npm test does) first.`);
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
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        ...TEST_ENV,
        ...db.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SHUTDOWN_TIMEOUT: '20',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    await waitUp(url);

    // Set-up through the API: root, a user with a balance, a token, a channel at the mock.
    const setup = await request(url)
      .post('/api/setup')
      .send({ username: 'root', password: 'root-pass-1', confirmPassword: 'root-pass-1' });
    expect(setup.body.success).toBe(true);
    const root = await new ApiClient(url).login('root', 'root-pass-1');
    expect((await root.post('/api/user/', { username: 'payer', password: 'password-1' })).body.success).toBe(
      true,
    );
    const payer = await new ApiClient(url).login('payer', 'password-1');
    const START = 5_000_000;
    expect(
      (await root.post('/api/user/manage', { id: payer.userId, action: 'add_quota', value: START })).body
        .success,
    ).toBe(true);
    const created = await root.post('/api/channel/', {
      type: 1,
      name: 'mock',
      key: 'sk-upstream',
      base_url: mock.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(created.body.success).toBe(true);
    const tok = await payer.post('/api/token/', {
      name: 'shutdown',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    expect(tok.body.success).toBe(true);
    const key = (await payer.post(`/api/token/${tok.body.data[0].id}/key`)).body.data.key as string;

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
    expect(((await slowRes.json()) as { usage: unknown }).usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 50 });
    const streamRes = await stream;
    expect(streamRes.status).toBe(200);
    const sse = await streamRes.text();
    expect(sse).toContain('w8');
    expect(sse.trim().endsWith('data: [DONE]')).toBe(true);

    // New connections are refused while it drains or after it stopped.
    await expect(fetch(`${url}/api/status`)).rejects.toThrow();

    const [code] = await exited;
    expect({ code, stderr: stderr.includes('shutdown failed') ? stderr : '' }).toEqual({
      code: 0,
      stderr: '',
    });

    // Read what the process left in the database with a fresh app on the same database.
    reader = await startNode({ db } as TestApp);
    const logs = await reader.ds.getRepository(LogEntry).findBy({ user_id: payer.userId!, type: 2 });
    expect(logs).toHaveLength(32);
    const billed = logs.reduce((sum, l) => sum + Number(l.quota), 0);
    expect(billed).toBeGreaterThan(0);
    expect(logs.map((l) => l.prompt_tokens).sort((a, b) => a - b)).toEqual(
      [...Array.from({ length: 30 }, (_, i) => 10 + i), 7, 100].sort((a, b) => a - b),
    );
    const user = await reader.ds.getRepository(User).findOneByOrFail({ id: payer.userId! });
    expect(Number(user.quota)).toBe(START - billed);
    expect(Number(user.used_quota)).toBe(billed);
    expect(user.request_count).toBe(32);
    const token = await reader.ds.getRepository(Token).findOneByOrFail({ id: tok.body.data[0].id });
    expect(Number(token.used_quota)).toBe(billed);
  });
});
