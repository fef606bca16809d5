/**
 * The integrator's example of docs/api.md (docs/examples/back-office.mjs) run as written against a
 * booted server: it creates a user, an API token of that user and a redemption code using only the
 * OpenAPI document, and what it prints is checked through the API.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, setupRoot, startApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'docs', 'examples', 'back-office.mjs');

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

function runScript(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('docs/api.md shows the example that this test runs', () => {
  expect(readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8')).toContain('examples/back-office.mjs');
});

test('the back-office example creates a user, its API token and a redemption code', async () => {
  const root = await setupRoot(t);
  const accessToken = (await root.get('/api/user/token')).body.data as string;
  expect(typeof accessToken).toBe('string');

  const run = await runScript({
    GATEHOUSE_URL: t.url,
    GATEHOUSE_ADMIN_ID: String(root.userId),
    GATEHOUSE_ADMIN_TOKEN: accessToken,
    NEW_USERNAME: 'alice',
    NEW_PASSWORD: 'alice-password-1',
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const out = JSON.parse(run.stdout) as { user_id: number; token_key: string; redemption_code: string };

  // The user exists and signs in with the password the script set.
  const alice = await new ApiClient(t.url).login('alice', 'alice-password-1');
  expect(alice.userId).toBe(out.user_id);
  // The token is alice's, and its full key is the one printed.
  const tokens = (await alice.get('/api/token/')).body.data as { items: Array<{ id: number; name: string }> };
  expect(tokens.items.map((x) => x.name)).toEqual(['back-office']);
  const key = (await alice.post(`/api/token/${tokens.items[0].id}/key`)).body.data as { key: string };
  expect(out.token_key).toBe(key.key);
  // The code is redeemable once, for its quota.
  const redeemed = await alice.post('/api/user/topup', { key: out.redemption_code });
  expect(redeemed.body).toMatchObject({ success: true, data: 100000 });
  const self = (await alice.get('/api/user/self')).body.data as { quota: number };
  expect(self.quota).toBeGreaterThanOrEqual(100000);
});

test('a call the document does not list stops the example with a clear error', async () => {
  const run = await runScript({
    GATEHOUSE_URL: t.url,
    GATEHOUSE_ADMIN_ID: '1',
    GATEHOUSE_ADMIN_TOKEN: 'not-a-token',
    NEW_USERNAME: 'bob',
    NEW_PASSWORD: 'bob-password-1',
  });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toMatch(/UserController_create: 401/);
});
