/**
 * What a node holds in memory from the start: packages that only some deployments use (the Redis
 * client without REDIS_CONN_STRING, SimpleWebAuthn before a passkey call, nodemailer before a mail,
 * qrcode before a two-factor enrolment) are loaded when first needed, not at start. Checked on the
 * built server in its own OS process; the database makes no difference, so the suite runs on SQLite.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentDriver } from '../support/databases';
import { ServerProcess, startServerProcess } from '../support/server-process';
import { ApiClient } from '../support/test-app';

const describeOnce = currentDriver() === 'sqlite' ? describe : describe.skip;
const ON_DEMAND = [
  'ioredis',
  '@nest-lab/throttler-storage-redis',
  '@simplewebauthn/server',
  'nodemailer',
  'qrcode',
];

describeOnce('start-up footprint', () => {
  let dir: string;
  let server: ServerProcess;
  let listFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gh-footprint-'));
    listFile = join(dir, 'loaded.txt');
    const env: Record<string, string> = {
      DATA_DIR: dir,
      SQLITE_PATH: join(dir, 'gatehouse.db'),
      NODE_OPTIONS: `--require ${join(__dirname, '../support/loaded-packages.js')}`,
      LOADED_PACKAGES_FILE: listFile,
    };
    server = await startServerProcess(env);
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function loaded(): Promise<string[]> {
    rmSync(listFile, { force: true });
    server.child.kill('SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(listFile); i++) await new Promise((r) => setTimeout(r, 20));
    return readFileSync(listFile, 'utf8').split('\n');
  }

  it('loads none of the on-demand packages at start or on ordinary calls, and one when its feature is used', async () => {
    const setup = await fetch(`${server.url}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: 'root-pass-1', confirmPassword: 'root-pass-1' }),
    });
    expect(((await setup.json()) as { success: boolean }).success).toBe(true);
    const root = await new ApiClient(server.url).login('root', 'root-pass-1');
    await root.get('/api/user/self').expect(200);

    const before = await loaded();
    // The list is real: packages every node uses are in it.
    expect(before).toEqual(expect.arrayContaining(['@nestjs/core', 'typeorm', 'better-sqlite3', 'undici']));
    expect(before.filter((p) => ON_DEMAND.includes(p))).toEqual([]);

    // A two-factor enrolment draws its QR code: qrcode is loaded then, and works.
    const enrol = await root.post('/api/user/2fa/totp/setup').expect(200);
    expect(enrol.body.data.qr_code).toMatch(/^data:image\/png;base64,/);
    const after = await loaded();
    expect(after).toContain('qrcode');
    expect(after.filter((p) => ON_DEMAND.includes(p) && p !== 'qrcode')).toEqual([]);
  });
});
