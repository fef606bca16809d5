import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseConfig, parseSqlDsn } from '../config/sql-dsn';

export type SourceFlavor = 'one-api' | 'new-api';
export type Row = Record<string, unknown>;

/**
 * Where the old deployment's database is: the same DSN forms as SQL_DSN (`postgres://…`, `mysql://…`,
 * `user:pass@tcp(host:port)/db`), plus `sqlite:///path/one-api.db`, `sqlite:path` or a plain file path.
 */
export function parseSourceDsn(dsn: string): DatabaseConfig {
  const s = dsn.trim();
  if (!s) throw new Error('--from is empty: give the DSN or SQLite file of the one-api / new-api database');
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(s) ?? /^file:(?:\/\/)?(.+)$/i.exec(s);
  if (sqlite) return { type: 'sqlite', path: resolve(sqlite[1]) };
  if (/^(postgres(ql)?|mysql):\/\//i.test(s) || /@(tcp|unix)\(|@\//.test(s)) return parseSqlDsn(s, '');
  return { type: 'sqlite', path: resolve(s) };
}

/** A DSN with its password hidden, for messages and the import ledger. */
export function describeSource(db: DatabaseConfig): string {
  switch (db.type) {
    case 'sqlite':
      return `sqlite:${db.path}`;
    case 'mysql':
      return `mysql://${db.username}@${db.host}:${db.port}/${db.database}`;
    case 'postgres': {
      const u = new URL(db.url);
      u.password = '';
      return u.toString();
    }
  }
}

function sourceOptions(db: DatabaseConfig): DataSourceOptions {
  switch (db.type) {
    case 'sqlite':
      if (!existsSync(db.path)) throw new Error(`no SQLite database at ${db.path}`);
      return {
        type: 'better-sqlite3',
        database: db.path,
        // Opened read-only; integers come back as bigint so quotas past 2^53 are seen exactly.
        readonly: true,
        fileMustExist: true,
        prepareDatabase: (conn: { defaultSafeIntegers: (on: boolean) => unknown }) => {
          conn.defaultSafeIntegers(true);
        },
      };
    case 'mysql':
      return {
        type: 'mysql',
        host: db.host,
        port: db.port,
        username: db.username,
        password: db.password,
        database: db.database,
        charset: 'utf8mb4_unicode_ci',
        supportBigNumbers: true,
        bigNumberStrings: true,
        timezone: 'Z',
        extra: { connectionLimit: 2 },
      };
    case 'postgres':
      // Every transaction of this connection is read-only: the source can not be written by mistake.
      return {
        type: 'postgres',
        url: db.url,
        extra: { max: 2, options: '-c default_transaction_read_only=on' },
      };
  }
}

/** The old deployment's database, read-only, read in batches of rows ordered by id. */
export class SourceDb {
  readonly tables = new Map<string, Set<string>>();
  flavor: SourceFlavor = 'one-api';

  private constructor(
    readonly config: DatabaseConfig,
    private readonly ds: DataSource,
  ) {}

  static async open(dsn: string): Promise<SourceDb> {
    const config = parseSourceDsn(dsn);
    const ds = new DataSource(sourceOptions(config));
    try {
      await ds.initialize();
    } catch (e) {
      throw new Error(`cannot open the source database ${describeSource(config)}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    const src = new SourceDb(config, ds);
    try {
      await src.introspect();
      src.flavor = src.detect();
    } catch (e) {
      await ds.destroy();
      throw e;
    }
    return src;
  }

  get description(): string {
    return describeSource(this.config);
  }

  get driver(): DatabaseConfig['type'] {
    return this.config.type;
  }

  private async introspect(): Promise<void> {
    let rows: Array<{ t: string; c: string }>;
    if (this.driver === 'sqlite') {
      const names: Array<{ name: string }> = await this.ds.query(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      );
      rows = [];
      for (const { name } of names) {
        const cols: Array<{ name: string }> = await this.ds.query(`PRAGMA table_info(${this.q(name)})`);
        for (const c of cols) rows.push({ t: name, c: c.name });
      }
    } else {
      const schema = this.driver === 'mysql' ? 'DATABASE()' : 'current_schema()';
      rows = await this.ds.query(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = ${schema}`,
      );
    }
    for (const { t, c } of rows) {
      const table = String(t).toLowerCase();
      if (!this.tables.has(table)) this.tables.set(table, new Set());
      this.tables.get(table)!.add(String(c).toLowerCase());
    }
  }

  /** one-api and new-api share the core tables; new-api's users and tokens carry columns one-api never had. */
  private detect(): SourceFlavor {
    const need: Record<string, string[]> = {
      users: ['id', 'username', 'password', 'quota', 'aff_code'],
      tokens: ['id', 'user_id', 'key', 'remain_quota'],
      channels: ['id', 'type', 'key', 'models'],
      options: ['key', 'value'],
    };
    for (const [table, cols] of Object.entries(need)) {
      const have = this.tables.get(table);
      const missing = have ? cols.filter((c) => !have.has(c)) : cols;
      if (!have || missing.length)
        throw new Error(
          `${this.description} is not a one-api or new-api database: ` +
            (have ? `table ${table} lacks ${missing.join(', ')}` : `it has no ${table} table`),
        );
    }
    const users = this.tables.get('users')!;
    const tokens = this.tables.get('tokens')!;
    const newApi =
      users.has('setting') || users.has('aff_quota') || users.has('deleted_at') || tokens.has('model_limits');
    return newApi ? 'new-api' : 'one-api';
  }

  has(table: string, column?: string): boolean {
    const t = this.tables.get(table);
    return !!t && (column === undefined || t.has(column));
  }

  columns(table: string): Set<string> {
    return this.tables.get(table) ?? new Set();
  }

  q(name: string): string {
    return this.driver === 'mysql' ? `\`${name}\`` : `"${name}"`;
  }

  private p(i: number): string {
    return this.driver === 'postgres' ? `$${i}` : '?';
  }

  async count(table: string): Promise<number> {
    const [r]: Array<{ n: unknown }> = await this.ds.query(`SELECT COUNT(*) AS n FROM ${this.q(table)}`);
    return Number(r.n);
  }

  /** Up to `limit` rows with id > afterId, by id (ids compared exactly, whatever their size). */
  async batch(table: string, afterId: bigint, limit: number): Promise<Row[]> {
    const after = this.driver === 'sqlite' ? afterId : afterId.toString();
    const rows: Row[] = await this.ds.query(
      `SELECT * FROM ${this.q(table)} WHERE ${this.q('id')} > ${this.p(1)} ORDER BY ${this.q('id')} LIMIT ${Math.floor(limit)}`,
      [after],
    );
    return rows.map(lowerKeys);
  }

  async all(table: string): Promise<Row[]> {
    const rows: Row[] = await this.ds.query(`SELECT * FROM ${this.q(table)}`);
    return rows.map(lowerKeys);
  }

  async close(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

function lowerKeys(r: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(r)) out[k.toLowerCase()] = v;
  return out;
}
