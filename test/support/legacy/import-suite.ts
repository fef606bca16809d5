import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../../server/src/app.factory';
import { AppConfig, loadConfig } from '../../../server/src/config/app-config';
import { createDataSource } from '../../../server/src/database/data-source';
import { parseArgs } from '../../../server/src/import/cli';
import { ImportOptions, ImportRefused, ImportResult, runImport } from '../../../server/src/import/importer';
import { reconciles, ReconRow } from '../../../server/src/import/report';
import { parseSourceDsn } from '../../../server/src/import/source';
import { QuotaLedgerService } from '../../../server/src/modules/billing/quota-ledger.service';
import { MockUpstream } from '../../mocks/mock-upstream';
import { currentDriver, freshDatabase, FreshDatabase } from '../databases';
import { ApiClient, ROOT, TEST_ENV } from '../test-app';
import { fillLegacy, LegacyFacts } from './fixtures';
import { createLegacyDb, LegacyDb } from './legacy-db';
import type { Flavor } from './schema';

const table = (r: ImportResult, name: string): ReconRow => {
  const row = r.reconciliation.find((x) => x.table === name);
  if (!row) throw new Error(`no reconciliation row for ${name}`);
  return row;
};

/**
 * The whole move from a one-api or new-api database built here on the current test database: a dry
 * run, the import, a resumed run, then the imported deployment served over real HTTP.
 */
export function describeImport(flavor: Flavor): void {
  describe(`import from ${flavor} (${currentDriver()} source and target)`, () => {
    let mock: MockUpstream;
    let legacy: LegacyDb;
    let facts: LegacyFacts;
    let target: FreshDatabase;
    let config: AppConfig;
    let app: NestFastifyApplication | null = null;
    let url = '';
    let ds: DataSource;
    let lines: string[] = [];

    const run = (opts: Partial<ImportOptions> = {}): Promise<ImportResult> => {
      lines = [];
      return runImport(config, {
        from: legacy.dsn,
        with: ['logs', 'tasks', 'dashboard'],
        batchSize: 2,
        log: (l) => lines.push(l),
        ...opts,
      });
    };
    const scalar = async (sql: string): Promise<number> => {
      const rows: Array<Record<string, unknown>> = await ds.query(sql);
      return Number(Object.values(rows[0])[0]);
    };

    beforeAll(async () => {
      mock = await MockUpstream.start();
      legacy = await createLegacyDb(flavor, currentDriver());
      facts = await fillLegacy(legacy, mock.url);
      target = await freshDatabase();
      config = loadConfig({ ...TEST_ENV, ...target.env }, { quiet: true });
      ds = createDataSource(config.database);
      await ds.initialize();
    });

    afterAll(async () => {
      await app?.close();
      if (ds?.isInitialized) await ds.destroy();
      await target?.drop();
      await legacy?.drop();
      await mock?.close();
    });

    it('reads the command line and the source DSN forms', async () => {
      expect(parseArgs(['--from', legacy.dsn, '--dry-run', '--with', 'logs,dashboard'])).toMatchObject({
        from: legacy.dsn,
        dryRun: true,
        with: ['logs', 'dashboard'],
      });
      expect(parseArgs(['--from=x.db', '--with', 'all', '--merge'])).toMatchObject({
        merge: true,
        with: ['logs', 'tasks', 'dashboard'],
      });
      expect(() => parseArgs(['--dry-run'])).toThrow('--from is required');
      expect(parseSourceDsn('oneapi:s3cret@tcp(db.local:3307)/oneapi?charset=utf8mb4')).toMatchObject({
        type: 'mysql',
        host: 'db.local',
        port: 3307,
        database: 'oneapi',
      });
      expect(parseSourceDsn('sqlite:///srv/one-api.db')).toEqual({ type: 'sqlite', path: '/srv/one-api.db' });
      expect(parseSourceDsn('/srv/new-api.db')).toEqual({ type: 'sqlite', path: '/srv/new-api.db' });
      expect(parseSourceDsn('postgres://u:p@h:5432/d')).toMatchObject({ type: 'postgres' });
      await expect(
        runImport(config, { from: '/nonexistent/one-api.db', log: () => undefined }),
      ).rejects.toThrow('no SQLite database at /nonexistent/one-api.db');
      expect(() => parseArgs(['--from', 'x', '--with', 'everything'])).toThrow('unknown table group');
    });

    it('dry run: prints the plan, every dropped or changed field and the reconciliation, and writes nothing', async () => {
      const r = await run({ dryRun: true });
      expect(r.flavor).toBe(flavor);
      expect(r.dryRun).toBe(true);
      expect(r.ok).toBe(true);
      expect(table(r, 'users')).toMatchObject({
        sourceRows: facts.rows.users,
        imported: facts.rows.users,
        rejected: 0,
      });
      expect(table(r, 'tokens')).toMatchObject({
        sourceRows: facts.rows.tokens,
        rejected: facts.rejected.tokens,
      });
      const out = lines.join('\n');
      expect(out).toContain('Reconciliation');
      expect(out).toContain('dry run');
      expect(out).toMatch(
        flavor === 'one-api'
          ? /users\.lark_id \(1 row with a value\)/
          : /users\.remark \(1 row with a value\)/,
      );
      expect(out).toMatch(/tokens: its user was not imported — 1 row \(4\)/);
      expect(out).toMatch(/users: email already used by another user: cleared — 1 row \(5\)/);
      expect(out).toMatch(/users: password is not a bcrypt hash/);
      const probe = createDataSource(config.database);
      await probe.initialize();
      const qr = probe.createQueryRunner();
      try {
        expect(await qr.hasTable('users')).toBe(false);
      } finally {
        await qr.release();
        await probe.destroy();
      }
    });

    it('stops cleanly when interrupted: every committed batch is whole', async () => {
      const stop = new Error('interrupted');
      await expect(
        run({
          onBatch: (name, done) => {
            if (name === 'tokens' && done >= 4) throw stop;
          },
        }),
      ).rejects.toBe(stop);
      expect(await scalar('SELECT COUNT(*) AS n FROM users')).toBe(facts.rows.users);
      // Two batches of two tokens read, one of them refused: three written, none twice.
      expect(await scalar('SELECT COUNT(*) AS n FROM tokens')).toBe(3);
      expect(await scalar('SELECT COUNT(*) AS n FROM channels')).toBe(0);
    });

    it('imports every table after the interruption, and the reconciliation matches row for row and quota for quota', async () => {
      const r = await run();
      expect(lines.join('\n')).toContain('resuming');
      expect(table(r, 'users')).toMatchObject({ imported: 0, targetRows: facts.rows.users });
      expect(table(r, 'tokens')).toMatchObject({ imported: facts.rows.tokens - facts.rejected.tokens - 3 });
      expect(lines.join('\n')).toContain('Every table reconciles.');
      expect(r.ok).toBe(true);
      for (const row of r.reconciliation) expect(reconciles(row)).toBe(true);
      for (const name of ['users', 'tokens', 'channels', 'redemptions', 'options']) {
        const row = table(r, name);
        expect(row.sourceRows).toBe(facts.rows[name]);
        expect(row.rejected).toBe(facts.rejected[name]);
        expect(row.targetRows).toBe(facts.rows[name] - facts.rejected[name]);
      }
      if (flavor === 'new-api') {
        expect(table(r, 'top_ups')).toMatchObject({ sourceRows: 3, rejected: 1, targetRows: 2 });
        for (const name of ['midjourneys', 'tasks', 'quota_data'])
          expect(table(r, name)).toMatchObject({ sourceRows: 1, targetRows: 1 });
      }
      expect(table(r, 'logs')).toMatchObject({ sourceRows: facts.rows.logs, targetRows: facts.rows.logs });
      expect(await scalar('SELECT COUNT(*) AS n FROM logs WHERE id = 3000000001')).toBe(1);
      const users = table(r, 'users');
      if (currentDriver() === 'sqlite') {
        // The 2^62 quota is capped at 2^53 - 1, and the difference is shown, not lost.
        expect(users.adjustedQuota).toBe(4611686018427387904n - BigInt(Number.MAX_SAFE_INTEGER));
      } else expect(users.adjustedQuota).toBe(0n);
      expect(users.targetQuota).toBe(users.sourceQuota! - users.adjustedQuota);

      // The routing index: channel 1 serves gpt-4o and gpt-4o-mini to both of its groups.
      expect(await scalar('SELECT COUNT(*) AS n FROM abilities WHERE channel_id = 1')).toBe(4);
      expect(
        await scalar('SELECT COUNT(*) AS n FROM abilities WHERE channel_id = 2 AND enabled = false'),
      ).toBe(1);
      const types: Array<{ id: unknown; type: unknown; status: unknown }> = await ds.query(
        'SELECT id, type, status FROM channels WHERE id IN (4, 5) ORDER BY id',
      );
      // DeepSeek is type 36 in one-api and 43 in new-api and here; a provider without an adapter is kept, disabled.
      expect(types.map((t) => [Number(t.id), Number(t.type), Number(t.status)])).toEqual([
        [4, 43, 1],
        [5, 8, 2],
      ]);
      const [ch]: Array<{ key: string; setting: string }> = await ds.query(
        'SELECT * FROM channels WHERE id = 1',
      );
      expect(ch.key.startsWith('gcm1:')).toBe(true);
      expect(ch.key).not.toContain('sk-upstream-key');
      if (flavor === 'new-api')
        expect(JSON.parse(ch.setting)).toMatchObject({ header_override: { 'X-Legacy': '1' } });
      const [tok]: Array<{ key_hash: string; key_hint: string; key_enc: string }> = await ds.query(
        'SELECT key_hash, key_hint, key_enc FROM tokens WHERE id = 1',
      );
      expect(tok.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tok.key_enc).not.toContain(facts.alice.key.slice(3));
      expect(tok.key_hint).toBe(`${facts.alice.key.slice(3, 7)}${facts.alice.key.slice(-4)}`);
      const [limited]: Array<{ model_limits: string; allow_ips: string }> = await ds.query(
        'SELECT model_limits, allow_ips FROM tokens WHERE id = 6',
      );
      expect(limited).toMatchObject({
        model_limits: 'gpt-4o,gpt-4o-mini',
        allow_ips: '10.0.0.0/8\n192.168.1.1',
      });
      expect(await scalar(`SELECT COUNT(*) AS n FROM users WHERE id = 3 AND deleted_at IS NOT NULL`)).toBe(1);
      expect(await scalar(`SELECT COUNT(*) AS n FROM redemptions WHERE id = 2 AND status = 3`)).toBe(1);
      if (flavor === 'new-api') {
        expect(await scalar(`SELECT COUNT(*) AS n FROM tokens WHERE id = 5 AND deleted_at IS NOT NULL`)).toBe(
          1,
        );
        expect(
          await scalar(`SELECT COUNT(*) AS n FROM redemptions WHERE id = 4 AND deleted_at IS NOT NULL`),
        ).toBe(1);
      }
      const secretKey = flavor === 'new-api' ? 'SMTPToken' : 'oidc.client_secret';
      const q = currentDriver() === 'mysql' ? '`' : '"';
      const [smtp]: Array<{ value: string }> = await ds.query(
        `SELECT value FROM options WHERE ${q}key${q} = '${secretKey}'`,
      );
      expect(smtp.value.startsWith('gcm1:')).toBe(true);
    });

    it('a second run resumes: rows already imported are neither written twice nor counted as missing', async () => {
      const before = await scalar('SELECT COUNT(*) AS n FROM users');
      const r = await run();
      expect(r.ok).toBe(true);
      expect(table(r, 'users')).toMatchObject({ imported: 0, targetRows: facts.rows.users });
      expect(table(r, 'tokens')).toMatchObject({ imported: 0, targetRows: facts.rows.tokens - 1 });
      expect(lines.join('\n')).toContain('resuming');
      expect(await scalar('SELECT COUNT(*) AS n FROM users')).toBe(before);
    });

    describe('the imported deployment, over HTTP', () => {
      beforeAll(async () => {
        app = await createApp(config);
        await app.listen(0, '127.0.0.1');
        url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
      });

      it('needs no setup wizard, and old passwords sign in; deleted and disabled users stay out', async () => {
        const status = await request(url).get('/api/setup');
        expect(status.body.data.status).toBe(true);
        const root = await new ApiClient(url).login(facts.root.username, facts.root.password);
        expect(root.userId).toBe(facts.root.id);
        const alice = await new ApiClient(url).login(facts.alice.username, facts.alice.password);
        const self = await alice.get('/api/user/self');
        expect(self.body.data).toMatchObject({
          username: 'alice',
          display_name: '爱丽丝 🌸',
          group: 'vip',
          quota: 5_000_000,
        });
        for (const u of [facts.deleted, facts.disabled]) {
          const res = await request(url)
            .post('/api/user/login')
            .send({ username: u.username, password: u.password });
          expect(res.body.success).toBe(false);
        }
        const wrong = await request(url)
          .post('/api/user/login')
          .send({ username: 'alice', password: 'not-the-password' });
        expect(wrong.body.success).toBe(false);
      });

      it("root's old access token still works on the management API", async () => {
        const res = await request(url)
          .get('/api/user/self')
          .set('Authorization', `Bearer ${facts.root.accessToken}`)
          .set('New-Api-User', String(facts.root.id));
        expect(res.body).toMatchObject({ success: true, data: { id: facts.root.id, role: 100 } });
      });

      it('an old sk- key calls /v1 through the imported channel and is billed at the imported prices', async () => {
        const quota = () => scalar(`SELECT quota FROM users WHERE id = ${facts.alice.id}`);
        const remain = () => scalar(`SELECT remain_quota FROM tokens WHERE id = ${facts.alice.tokenId}`);
        const [q0, r0] = [await quota(), await remain()];
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${facts.alice.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
        expect(body.choices[0].message.content).toBe('Hello from the mock upstream.');
        expect(mock.last!.headers.authorization).toBe('Bearer sk-upstream-key');
        await app!.get(QuotaLedgerService).flush();
        const logs: Array<{ quota: unknown; other: string; token_id: unknown }> = await ds.query(
          `SELECT quota, other, token_id FROM logs WHERE user_id = ${facts.alice.id} AND type = 2 ORDER BY id DESC`,
        );
        const charged = Number(logs[0].quota);
        expect(charged).toBeGreaterThan(0);
        expect(Number(logs[0].token_id)).toBe(facts.alice.tokenId);
        expect(JSON.parse(logs[0].other)).toMatchObject({
          model_ratio: facts.gpt4oRatio,
          group_ratio: facts.aliceGroupRatio,
        });
        expect(await quota()).toBe(q0 - charged);
        expect(await remain()).toBe(r0 - charged);
      });

      it("a deleted user's old key is refused", async () => {
        const lastUpstream = mock.last;
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${facts.deleted.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(mock.last).toBe(lastUpstream);
      });

      it('a redeemed code stays redeemed; an unused one still credits', async () => {
        const alice = await new ApiClient(url).login(facts.alice.username, facts.alice.password);
        const used = await alice.post('/api/user/topup', { key: facts.usedCode.key });
        expect(used.body.success).toBe(false);
        expect(await scalar(`SELECT status FROM redemptions WHERE id = ${facts.usedCode.id}`)).toBe(3);
        const before = await scalar(`SELECT quota FROM users WHERE id = ${facts.alice.id}`);
        const ok = await alice.post('/api/user/topup', { key: facts.unusedCode.key });
        expect(ok.body.success).toBe(true);
        expect(await scalar(`SELECT quota FROM users WHERE id = ${facts.alice.id}`)).toBe(
          before + facts.unusedCode.quota,
        );
      });

      it('refuses a target holding rows it did not create unless --merge, and then leaves them alone', async () => {
        // The deployment has been used since: its own log rows are not the import's.
        await expect(run()).rejects.toBeInstanceOf(ImportRefused);
        const logs = await scalar('SELECT COUNT(*) AS n FROM logs');
        const aliceQuota = await scalar(`SELECT quota FROM users WHERE id = ${facts.alice.id}`);
        const r = await run({ merge: true });
        // Every source row is still accounted for; balances spent or credited since the move now differ
        // from the source, and the reconciliation says so rather than writing the old values back.
        for (const row of r.reconciliation) expect(row.targetRows + row.rejected).toBe(row.sourceRows);
        expect(table(r, 'users')).toMatchObject({ imported: 0, targetRows: facts.rows.users });
        expect(r.ok).toBe(false);
        expect(await scalar(`SELECT quota FROM users WHERE id = ${facts.alice.id}`)).toBe(aliceQuota);
        expect(await scalar('SELECT COUNT(*) AS n FROM logs')).toBe(logs);
        // The redemption of the code after the move is not undone by the merge.
        expect(await scalar(`SELECT status FROM redemptions WHERE id = ${facts.unusedCode.id}`)).toBe(3);
      });
    });

    describe('into a deployment already set up', () => {
      let other: FreshDatabase;
      let otherConfig: AppConfig;

      afterAll(async () => {
        await other?.drop();
      });

      it('is refused without --merge; with it, rows the import did not create are never overwritten', async () => {
        other = await freshDatabase();
        otherConfig = loadConfig({ ...TEST_ENV, ...other.env }, { quiet: true });
        const setUp = await createApp(otherConfig);
        await setUp.listen(0, '127.0.0.1');
        const base = `http://127.0.0.1:${(setUp.getHttpServer().address() as { port: number }).port}`;
        const wizard = await request(base)
          .post('/api/setup')
          .send({ username: ROOT.username, password: ROOT.password, confirmPassword: ROOT.password });
        expect(wizard.body.success).toBe(true);
        await setUp.close();

        const opts = { from: legacy.dsn, batchSize: 3, log: () => undefined };
        await expect(runImport(otherConfig, opts)).rejects.toThrow(
          /not empty: it holds rows this import did not create \(users: 1\)/,
        );
        const probe = createDataSource(otherConfig.database);
        await probe.initialize();
        try {
          const before: Array<{ password: string; quota: unknown }> = await probe.query(
            'SELECT password, quota FROM users WHERE id = 1',
          );
          const r = await runImport(otherConfig, { ...opts, merge: true });
          expect(r.ok).toBe(true);
          // Id 1 belongs to the wizard's root: the source's root is reported, and so is its token.
          expect(
            r.report.rejected
              .get('users')
              ?.get('its id is taken in the target by a row this import did not create'),
          ).toMatchObject({ count: 1, ids: [1] });
          expect(r.report.rejected.get('tokens')?.get('its user was not imported')?.ids).toEqual([3, 4]);
          expect(table(r, 'users')).toMatchObject({ rejected: 1, targetRows: facts.rows.users - 1 });
          const after: Array<{ password: string; quota: unknown }> = await probe.query(
            'SELECT password, quota FROM users WHERE id = 1',
          );
          expect(after).toEqual(before);
          const [setups]: Array<{ n: unknown }> = await probe.query('SELECT COUNT(*) AS n FROM setups');
          expect(Number(setups.n)).toBe(1);
        } finally {
          await probe.destroy();
        }
        // The wizard's root still signs in with its own password; an imported user with the old one.
        const app2 = await createApp(otherConfig);
        await app2.listen(0, '127.0.0.1');
        try {
          const url2 = `http://127.0.0.1:${(app2.getHttpServer().address() as { port: number }).port}`;
          await new ApiClient(url2).login(ROOT.username, ROOT.password);
          await new ApiClient(url2).login(facts.alice.username, facts.alice.password);
        } finally {
          await app2.close();
        }
      });
    });
  });
}
