import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bcrypt from 'bcrypt';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { freshDatabase, TestDriver } from '../databases';
import { Driver, Flavor, legacyDdl, quote } from './schema';

export type LegacyRow = Record<string, unknown>;

/** A one-api or new-api database on a real server (a temp file for SQLite), filled by the tests. */
export interface LegacyDb {
  flavor: Flavor;
  driver: Driver;
  /** What `--from` takes. */
  dsn: string;
  insert(table: string, rows: LegacyRow[]): Promise<void>;
  query(sql: string): Promise<LegacyRow[]>;
  drop(): Promise<void>;
}

/** Go's bcrypt writes the `$2a$` prefix. */
export function goBcrypt(password: string): string {
  return bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2a$');
}

function sqliteValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  // GORM keeps times on SQLite as text with the offset.
  if (v instanceof Date) return v.toISOString().replace('T', ' ').replace('Z', '+00:00');
  return v;
}

export async function createLegacyDb(flavor: Flavor, driver: TestDriver): Promise<LegacyDb> {
  const ddl = legacyDdl(flavor, driver);
  if (driver === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-legacy-'));
    const path = join(dir, `${flavor}.db`);
    const db = new DataSource({ type: 'better-sqlite3', database: path });
    await db.initialize();
    for (const sql of ddl) await db.query(sql);
    return {
      flavor,
      driver,
      dsn: `sqlite://${path}`,
      insert: async (table, rows) => {
        for (const row of rows) {
          const cols = Object.keys(row);
          await db.query(
            `INSERT INTO ${quote(driver, table)} (${cols.map((c) => quote(driver, c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
            cols.map((c) => sqliteValue(row[c])),
          );
        }
      },
      query: (sql) => db.query(sql),
      drop: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const fresh = await freshDatabase(driver);
  const dsn = fresh.env.SQL_DSN;
  if (driver === 'mysql') {
    const conn = await createConnection({ uri: dsn, charset: 'utf8mb4_unicode_ci', timezone: 'Z' });
    for (const sql of ddl) await conn.query(sql);
    return {
      flavor,
      driver,
      dsn,
      insert: async (table, rows) => {
        for (const row of rows) {
          const cols = Object.keys(row);
          await conn.query(
            `INSERT INTO ${quote(driver, table)} (${cols.map((c) => quote(driver, c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
            cols.map((c) => row[c]),
          );
        }
      },
      query: async (sql) => (await conn.query(sql))[0] as LegacyRow[],
      drop: async () => {
        await conn.end();
        await fresh.drop();
      },
    };
  }
  const client = new Client({ connectionString: dsn });
  await client.connect();
  for (const sql of ddl) await client.query(sql);
  return {
    flavor,
    driver,
    dsn,
    insert: async (table, rows) => {
      for (const row of rows) {
        const cols = Object.keys(row);
        await client.query(
          `INSERT INTO ${quote(driver, table)} (${cols.map((c) => quote(driver, c)).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
          cols.map((c) => row[c]),
        );
      }
    },
    query: async (sql) => (await client.query(sql)).rows as LegacyRow[],
    drop: async () => {
      await client.end();
      await fresh.drop();
    },
  };
}
