import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { checkAnswersFrom } from './openapi-check';
import { TEST_ENV } from './test-app';

/** The built server (`npm run build:server`), run as its own OS process by the process-level suites. */
export const MAIN = join(__dirname, '../../dist/server/src/main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
}

/** Starts the built server with `env` on a free port and waits until it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run npm run build:server (npm test does) first.`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  checkAnswersFrom(url);
  let stderr = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...TEST_ENV, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/status`)).ok) return { child, url, stderr: () => stderr };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not come up: ${stderr}`);
}

export interface Provisioned {
  userId: number;
  /** Token ids and keys: one unlimited, one with `limitedQuota` left. */
  unlimited: { id: number; key: string };
  limited: { id: number; key: string };
}

/** Set-up through the API of a fresh server: root, a user with `balance`, a channel at `upstream`, two tokens. */
export async function provisionRelay(
  url: string,
  upstream: string,
  balance: number,
  limitedQuota: number,
): Promise<Provisioned> {
  const { ApiClient } = await import('./test-app');
  const setup = await fetch(`${url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: 'root-pass-1', confirmPassword: 'root-pass-1' }),
  });
  if (!((await setup.json()) as { success: boolean }).success) throw new Error('setup failed');
  const root = await new ApiClient(url).login('root', 'root-pass-1');
  const ok = (r: { body: { success: boolean; message?: string } }) => {
    if (!r.body.success) throw new Error(r.body.message ?? 'refused');
    return r;
  };
  ok(await root.post('/api/user/', { username: 'payer', password: 'password-1' }));
  const payer = await new ApiClient(url).login('payer', 'password-1');
  ok(await root.post('/api/user/manage', { id: payer.userId, action: 'add_quota', value: balance }));
  ok(
    await root.post('/api/channel/', {
      type: 1,
      name: 'mock',
      key: 'sk-upstream',
      base_url: upstream,
      models: 'gpt-4o-mini',
      group: 'default',
    }),
  );
  const token = async (name: string, unlimited: boolean) => {
    const r = ok(
      await payer.post('/api/token/', {
        name,
        remain_quota: unlimited ? 0 : limitedQuota,
        unlimited_quota: unlimited,
        expired_time: -1,
      }),
    );
    const id = (r.body as unknown as { data: Array<{ id: number }> }).data[0].id;
    const key = ((await payer.post(`/api/token/${id}/key`)).body as { data: { key: string } }).data.key;
    return { id, key };
  };
  return {
    userId: payer.userId!,
    unlimited: await token('unlimited', true),
    limited: await token('limited', false),
  };
}
