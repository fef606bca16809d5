import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';

export type TestDriver = 'sqlite' | 'mysql' | 'postgres';

export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root:@127.0.0.1:3306';
export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export function currentDriver(): TestDriver {
  const d = process.env.GATEHOUSE_TEST_DB ?? 'sqlite';
  if (d !== 'sqlite' && d !== 'mysql' && d !== 'postgres') throw new Error(`unknown GATEHOUSE_TEST_DB ${d}`);
  return d;
}

export interface FreshDatabase {
  /** Environment for loadConfig: SQL_DSN / SQLITE_PATH / DATA_DIR. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A new, empty database on the real server of the current driver (a temp file for SQLite). */
export async function freshDatabase(driver: TestDriver = currentDriver()): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const name = `gh_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  if (driver === 'sqlite') {
    return { env: { DATA_DIR: dataDir, SQLITE_PATH: join(dataDir, 'test.db') }, drop: async () => cleanup() };
  }
  if (driver === 'mysql') {
    const conn = await createConnection(MYSQL_URL);
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.end();
    return {
      env: { DATA_DIR: dataDir, SQL_DSN: `${MYSQL_URL}/${name}` },
      drop: async () => {
        const c = await createConnection(MYSQL_URL);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
        cleanup();
      },
    };
  }
  const admin = new Client({ connectionString: `${PG_URL}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    env: { DATA_DIR: dataDir, SQL_DSN: `${PG_URL}/${name}` },
    drop: async () => {
      const c = new Client({ connectionString: `${PG_URL}/postgres` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      cleanup();
    },
  };
}
