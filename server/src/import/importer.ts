import { Presets, SingleBar } from 'cli-progress';
import { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { CacheBus } from '../common/cache-bus';
import { CryptoService } from '../common/crypto.service';
import type { AppConfig } from '../config/app-config';
import { createDataSource } from '../database/data-source';
import { Channel, OptionRow, Role, Setup, Token } from '../database/entities';
import { ChannelService } from '../modules/channel';
import { TokenService } from '../modules/token';
import { version } from '../version';
import { mapOptions } from './options';
import { ImportReport, reconciles, ReconRow, renderReconciliation } from './report';
import { Row, SourceDb } from './source';
import { claim, MapState, RowCtx, TableGroup, TableSpec, TABLES } from './tables';
import {
  charLength,
  INT32_MAX,
  INT32_MIN,
  isBlank,
  toBigInt,
  toBool,
  toFloat,
  toText,
  toUnixSeconds,
  truncateChars,
} from './values';

export interface ImportOptions {
  /** DSN or SQLite file of the one-api / new-api database. */
  from: string;
  dryRun?: boolean;
  /** Allows a target that already holds rows; rows this import did not create are never overwritten. */
  merge?: boolean;
  /** Opt-in tables: logs, tasks (Midjourney and async tasks), dashboard (hourly aggregates). */
  with?: Array<Exclude<TableGroup, 'core'>>;
  batchSize?: number;
  /** Shows a progress bar per table on stderr (when it is a terminal). */
  progress?: boolean;
  log?: (line: string) => void;
  /** Called after each batch is committed (rows of the table read so far, rows in it); throwing stops the import. */
  onBatch?: (table: string, done: number, total: number) => void;
}

export interface ImportResult {
  flavor: string;
  dryRun: boolean;
  report: ImportReport;
  reconciliation: ReconRow[];
  /** Every table reconciles. */
  ok: boolean;
}

/** The import's own bookkeeping in the target: which rows it created (resume, --merge, reconciliation). */
export const LEDGER_TABLE = 'import_ledger';
const SOURCE_MARK = '_source';
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export class ImportRefused extends Error {}

/** Reads a one-api or new-api database and writes its content into this deployment's database. */
export async function runImport(config: AppConfig, opts: ImportOptions): Promise<ImportResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const src = await SourceDb.open(opts.from);
  const target = createDataSource(config.database);
  try {
    await target.initialize();
    return await new Importer(src, target, config, opts, log).run();
  } finally {
    await src.close();
    if (target.isInitialized) await target.destroy();
  }
}

class Importer {
  private readonly report = new ImportReport();
  private readonly recon: ReconRow[] = [];
  private readonly state: MapState;
  private readonly channels: ChannelService;
  private readonly dryRun: boolean;
  private readonly batchSize: number;
  private readonly now = Math.floor(Date.now() / 1000);
  private ledgerReady = false;

  constructor(
    private readonly src: SourceDb,
    private readonly ds: DataSource,
    config: AppConfig,
    private readonly opts: ImportOptions,
    private readonly log: (line: string) => void,
  ) {
    const crypto = new CryptoService(config);
    const bus = new CacheBus();
    this.state = {
      crypto,
      tokens: new TokenService(ds.getRepository(Token), crypto, bus),
      users: new Set(),
      taken: new Map(),
      flavor: src.flavor,
    };
    this.channels = new ChannelService(ds, crypto, bus);
    this.dryRun = !!opts.dryRun;
    this.batchSize = Math.max(1, Math.min(opts.batchSize ?? 500, 5000));
  }

  async run(): Promise<ImportResult> {
    const groups = new Set<TableGroup>(['core', ...(this.opts.with ?? [])]);
    this.log(`Source: ${this.src.description} (${this.src.flavor})`);
    this.log(
      `Target: ${this.ds.options.type === 'better-sqlite3' ? 'sqlite' : this.ds.options.type}${this.dryRun ? ' (dry run: nothing is written)' : ''}`,
    );
    if (!this.dryRun) {
      const applied = await this.ds.runMigrations({ transaction: 'each' });
      if (applied.length) this.log(`Schema: applied ${applied.map((m) => m.name).join(', ')}`);
      await this.ensureLedger();
    } else {
      this.ledgerReady = await this.tableExists(LEDGER_TABLE);
    }
    await this.checkTarget();
    await this.loadTaken();
    for (const spec of TABLES) {
      if (!groups.has(spec.group)) {
        if (this.src.has(spec.name))
          this.report.note(`${spec.name}: not imported (opt in with --with ${spec.group})`);
        continue;
      }
      await this.importTable(spec);
    }
    await this.importOptions();
    if (!this.dryRun) await this.finish();
    const ok = this.recon.every(reconciles);
    this.log('');
    this.log(this.report.render());
    this.log('');
    this.log(`Reconciliation (${this.dryRun ? 'what the import would do' : 'source vs target'}):`);
    this.log(renderReconciliation(this.recon, this.dryRun));
    this.log(ok ? 'Every table reconciles.' : 'Some tables do not reconcile: see the rows marked NO.');
    return {
      flavor: this.src.flavor,
      dryRun: this.dryRun,
      report: this.report,
      reconciliation: this.recon,
      ok,
    };
  }

  // ---- target bookkeeping -------------------------------------------------------------------

  private esc(name: string): string {
    return this.ds.driver.escape(name);
  }

  private ph(i: number): string {
    return this.ds.options.type === 'postgres' ? `$${i}` : '?';
  }

  private async tableExists(name: string): Promise<boolean> {
    const qr = this.ds.createQueryRunner();
    try {
      return await qr.hasTable(name);
    } finally {
      await qr.release();
    }
  }

  private async ensureLedger(): Promise<void> {
    await this.ds.query(
      `CREATE TABLE IF NOT EXISTS ${this.esc(LEDGER_TABLE)} (` +
        `tbl varchar(32) NOT NULL, row_id bigint NOT NULL, row_key varchar(191) NOT NULL DEFAULT '', ` +
        `imported_at bigint NOT NULL DEFAULT 0, PRIMARY KEY (tbl, row_id, row_key))`,
    );
    this.ledgerReady = true;
  }

  private async ledgerIds(table: string, from: number, to: number): Promise<Set<number>> {
    if (!this.ledgerReady) return new Set();
    const rows: Array<{ row_id: unknown }> = await this.ds.query(
      `SELECT row_id FROM ${this.esc(LEDGER_TABLE)} WHERE tbl = ${this.ph(1)} AND row_id >= ${this.ph(2)} AND row_id <= ${this.ph(3)}`,
      [table, from, to],
    );
    return new Set(rows.map((r) => Number(r.row_id)));
  }

  private async ledgerKeys(table: string): Promise<Set<string>> {
    if (!this.ledgerReady) return new Set();
    const rows: Array<{ row_key: string }> = await this.ds.query(
      `SELECT row_key FROM ${this.esc(LEDGER_TABLE)} WHERE tbl = ${this.ph(1)}`,
      [table],
    );
    return new Set(rows.map((r) => r.row_key));
  }

  /** The number a `SELECT COUNT(*) AS n` query answers. */
  private async count(sql: string, params: unknown[] = []): Promise<number> {
    const [r]: Array<{ n: unknown }> = await this.ds.query(sql, params);
    return Number(r.n);
  }

  private async ledgerCount(table: string): Promise<number> {
    if (!this.ledgerReady) return 0;
    return this.count(`SELECT COUNT(*) AS n FROM ${this.esc(LEDGER_TABLE)} WHERE tbl = ${this.ph(1)}`, [
      table,
    ]);
  }

  private async record(
    m: EntityManager,
    table: string,
    entries: Array<{ id: number; key?: string }>,
  ): Promise<void> {
    for (let i = 0; i < entries.length; i += 200) {
      const chunk = entries.slice(i, i + 200);
      await m
        .createQueryBuilder()
        .insert()
        .into(LEDGER_TABLE, ['tbl', 'row_id', 'row_key', 'imported_at'])
        .values(chunk.map((e) => ({ tbl: table, row_id: e.id, row_key: e.key ?? '', imported_at: this.now })))
        .orIgnore()
        .execute();
    }
  }

  private async countRows(table: string): Promise<number> {
    try {
      return await this.count(`SELECT COUNT(*) AS n FROM ${this.esc(table)}`);
    } catch {
      return 0; // not created yet (dry run against a new database)
    }
  }

  /** Refuses a target holding rows the import did not create, unless --merge; and a ledger of another source. */
  private async checkTarget(): Promise<void> {
    const keys = await this.ledgerKeys(SOURCE_MARK);
    const foreign = [...keys].filter((k) => k !== this.src.description);
    if (foreign.length && !this.opts.merge)
      throw new ImportRefused(
        `the target already holds rows imported from ${foreign.join(', ')}; add --merge to import ${this.src.description} as well`,
      );
    const occupied: string[] = [];
    for (const spec of TABLES) {
      const own = (await this.countRows(spec.name)) - (await this.ledgerCount(spec.name));
      if (own > 0) occupied.push(`${spec.name}: ${own}`);
    }
    if (occupied.length && !this.opts.merge)
      throw new ImportRefused(
        `the target database is not empty: it holds rows this import did not create (${occupied.join(', ')}). ` +
          'Import into a new deployment, or add --merge to add the source next to them (they are never overwritten).',
      );
    if (occupied.length)
      this.report.note(`merging next to rows already in the target (${occupied.join(', ')})`);
    if (keys.has(this.src.description))
      this.report.note('resuming: rows imported by an earlier run are kept and skipped');
    if (!this.dryRun)
      await this.ds.transaction((m) => this.record(m, SOURCE_MARK, [{ id: 0, key: this.src.description }]));
  }

  /** Unique values already in the target, so a clash is reported instead of failing a whole batch. */
  private async loadTaken(): Promise<void> {
    const pairs: Array<[string, string, string]> = [
      ['users', 'username', 'username'],
      ['users', 'email', 'email'],
      ['users', 'github_id', 'github_id'],
      ['users', 'oidc_id', 'oidc_id'],
      ['users', 'wechat_id', 'wechat_id'],
      ['users', 'telegram_id', 'telegram_id'],
      ['users', 'linux_do_id', 'linux_do_id'],
      ['users', 'access_token_hash', 'access_token_hash'],
      ['users', 'aff_code', 'aff_code'],
      ['tokens', 'key_hash', 'key_hash'],
      ['redemptions', 'key', 'redemption_key'],
      ['top_ups', 'trade_no', 'trade_no'],
    ];
    for (const [table, column, name] of pairs) {
      let rows: Array<{ v: unknown }>;
      try {
        rows = await this.ds.query(
          `SELECT ${this.esc(column)} AS v FROM ${this.esc(table)} WHERE ${this.esc(column)} IS NOT NULL`,
        );
      } catch {
        continue; // dry run before the schema exists
      }
      for (const r of rows) claim(this.state, name, String(r.v));
    }
  }

  // ---- tables -------------------------------------------------------------------------------

  private progressBar(table: string, total: number): SingleBar | null {
    if (!this.opts.progress) return null;
    const bar = new SingleBar(
      {
        format: `${table.padEnd(12)} [{bar}] {value}/{total} rows`,
        hideCursor: true,
        clearOnComplete: false,
      },
      Presets.shades_classic,
    );
    bar.start(total, 0);
    return bar;
  }

  private async importTable(spec: TableSpec): Promise<void> {
    if (!this.src.has(spec.name)) {
      this.report.note(`${spec.name}: the source has no such table`);
      return;
    }
    const meta = this.ds.getMetadata(spec.entity);
    const columns = meta.columns;
    const srcCols = this.src.columns(spec.name);
    const renamedFrom = new Map(Object.entries(spec.rename ?? {}).map(([s, t]) => [t, s]));
    const ours = new Set(columns.map((c) => c.databaseName));
    const consumed = new Set([...(spec.consumed ?? []), ...Object.keys(spec.rename ?? {})]);
    const droppedCols = [...srcCols].filter((c) => !ours.has(c) && !consumed.has(c));
    for (const c of droppedCols)
      this.report.dropColumn(spec.name, c, spec.dropped?.[c] ?? 'no counterpart here');
    const quotaCol = spec.quota && srcCols.has(spec.quota) ? spec.quota : null;
    const row: ReconRow = {
      table: spec.name,
      sourceRows: 0,
      imported: 0,
      rejected: 0,
      targetRows: 0,
      sourceQuota: quotaCol ? 0n : null,
      rejectedQuota: 0n,
      adjustedQuota: 0n,
      targetQuota: quotaCol ? 0n : null,
    };
    const total = await this.src.count(spec.name);
    const bar = this.progressBar(spec.name, total);
    let after = BigInt(INT32_MIN);
    let plannedRows = 0;
    // Ids stay those of the source: they must fit our id column.
    const maxId = String(meta.primaryColumns[0].type) === 'bigint' ? Number.MAX_SAFE_INTEGER : INT32_MAX;
    let plannedQuota = 0n;
    const imported: number[] = [];
    try {
      for (;;) {
        const batch = await this.src.batch(spec.name, after, this.batchSize);
        if (!batch.length) break;
        after = toBigInt(batch[batch.length - 1].id) ?? after;
        const ids = batch.map((r) => Number(toBigInt(r.id))).filter((id) => Number.isSafeInteger(id));
        const [lo, hi] = ids.length ? [Math.min(...ids), Math.max(...ids)] : [0, -1];
        const done = await this.ledgerIds(spec.name, lo, hi);
        const present =
          this.dryRun && !(await this.tableExists(spec.name))
            ? new Set<number>()
            : await this.existingIds(spec.name, lo, hi);
        const out: Array<Record<string, unknown>> = [];
        for (const srcRow of batch) {
          const id = Number(toBigInt(srcRow.id));
          const q = quotaCol ? (toBigInt(srcRow[quotaCol]) ?? 0n) : 0n;
          row.sourceRows++;
          if (row.sourceQuota !== null) row.sourceQuota += q;
          for (const c of droppedCols) if (!isBlank(srcRow[c])) this.report.droppedValue(spec.name, c);
          if (done.has(id)) {
            // Imported by an earlier run: only what capping took off its quota is counted again.
            row.adjustedQuota += q > MAX_SAFE ? q - MAX_SAFE : q < -MAX_SAFE ? q + MAX_SAFE : 0n;
            if (spec.name === 'users') this.state.users.add(id);
            continue;
          }
          const fail = (reason: string) => {
            this.report.reject(spec.name, id, reason);
            row.rejected++;
            row.rejectedQuota += q;
          };
          if (!Number.isSafeInteger(id) || id <= 0 || id > maxId) {
            fail(`id is not a whole number from 1 to ${maxId}`);
            continue;
          }
          if (present.has(id)) {
            fail('its id is taken in the target by a row this import did not create');
            continue;
          }
          const mapped = this.mapRow(spec, columns, renamedFrom, srcRow, id, quotaCol);
          if ('reject' in mapped) {
            fail(mapped.reject);
            continue;
          }
          row.adjustedQuota += mapped.adjusted;
          out.push(mapped.row);
          if (spec.name === 'users') this.state.users.add(id);
          if (quotaCol) plannedQuota += toBigInt(mapped.row[quotaCol]) ?? 0n;
          plannedRows++;
        }
        if (!this.dryRun && out.length) await this.write(spec, out);
        imported.push(...out.map((r) => r.id as number));
        bar?.update(row.sourceRows);
        this.opts.onBatch?.(spec.name, row.sourceRows, total);
      }
    } finally {
      bar?.stop();
    }
    if (this.dryRun) {
      row.imported = plannedRows;
      row.targetRows = plannedRows + (await this.ledgerCount(spec.name));
      if (row.targetQuota !== null)
        row.targetQuota = plannedQuota + (await this.targetQuota(spec, quotaCol!));
    } else {
      await this.resetSequence(spec.name);
      row.imported = imported.length;
      row.targetRows = await this.targetCount(spec.name);
      if (row.targetQuota !== null) row.targetQuota = await this.targetQuota(spec, quotaCol!);
    }
    this.recon.push(row);
  }

  private async existingIds(table: string, from: number, to: number): Promise<Set<number>> {
    const rows: Array<{ id: unknown }> = await this.ds.query(
      `SELECT id FROM ${this.esc(table)} WHERE id >= ${this.ph(1)} AND id <= ${this.ph(2)}`,
      [from, to],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** One source row → our row: columns copied by name and checked against our column types, then the table's mapping. */
  private mapRow(
    spec: TableSpec,
    columns: ColumnMetadata[],
    renamedFrom: Map<string, string>,
    src: Row,
    id: number,
    quotaCol: string | null,
  ): { row: Record<string, unknown>; adjusted: bigint } | { reject: string } {
    let rejected: string | null = null;
    let adjusted = 0n;
    const ctx: RowCtx = {
      id,
      now: this.now,
      change: (m) => this.report.change(spec.name, id, m),
      reject: (reason) => {
        rejected ??= reason;
      },
      adjust: (d) => {
        adjusted += d;
      },
    };
    const out: Record<string, unknown> = { id };
    const computed = new Set(spec.computed ?? []);
    for (const col of columns) {
      const name = col.databaseName;
      if (name === 'id' || computed.has(name)) continue;
      const from = renamedFrom.get(name) ?? name;
      out[name] = this.coerce(col, src[from], ctx, name === quotaCol);
    }
    spec.map?.(src, out, ctx, this.state);
    if (rejected) return { reject: rejected };
    // Values a mapping filled in are held to the same column limits.
    for (const col of columns) {
      const v = out[col.databaseName];
      if (typeof v === 'string' && col.length && charLength(v) > Number(col.length)) {
        ctx.change(`${col.databaseName} longer than ${col.length} characters: cut`);
        out[col.databaseName] = truncateChars(v, Number(col.length));
      }
    }
    return { row: out, adjusted };
  }

  private coerce(col: ColumnMetadata, v: unknown, ctx: RowCtx, isQuota: boolean): unknown {
    const name = col.databaseName;
    const type = String(col.type);
    const fallback = (): unknown => {
      if (col.isNullable && (col.default === undefined || col.default === null)) return null;
      if (col.default !== undefined && col.default !== null && typeof col.default !== 'function')
        return col.default;
      if (type === 'varchar' || type === 'text') return '';
      if (type === 'boolean') return false;
      return 0;
    };
    if (v === null || v === undefined) return fallback();
    switch (type) {
      case 'int':
      case 'integer':
      case 'bigint': {
        // Times kept as dates by the source are unix seconds here.
        const asTime = v instanceof Date || typeof v === 'string' ? toUnixSeconds(v) : null;
        const n =
          v instanceof Date
            ? BigInt(asTime ?? 0)
            : (toBigInt(v) ?? (asTime === null ? null : BigInt(asTime)));
        if (n === null) {
          ctx.change(`${name} is not a whole number: default used`);
          return fallback();
        }
        const [lo, hi] = type === 'bigint' ? [-MAX_SAFE, MAX_SAFE] : [BigInt(INT32_MIN), BigInt(INT32_MAX)];
        if (n < lo || n > hi) {
          const kept = n < lo ? lo : hi;
          ctx.change(
            `${name} beyond what a ${type === 'bigint' ? '53-bit' : '32-bit'} number holds: capped at ${kept}`,
          );
          if (isQuota) ctx.adjust(n - kept);
          return Number(kept);
        }
        return Number(n);
      }
      case 'double precision': {
        const f = toFloat(v);
        if (f === null) {
          ctx.change(`${name} is not a number: default used`);
          return fallback();
        }
        return f;
      }
      case 'boolean':
        return toBool(v);
      default: {
        const s = toText(v);
        if (s === null) return fallback();
        if (col.length && charLength(s) > Number(col.length)) {
          ctx.change(`${name} longer than ${col.length} characters: cut`);
          return truncateChars(s, Number(col.length));
        }
        return s;
      }
    }
  }

  private async write(spec: TableSpec, rows: Array<Record<string, unknown>>): Promise<void> {
    const ids = rows.map((r) => ({ id: r.id as number }));
    const meta = this.ds.getMetadata(spec.entity);
    await this.ds.transaction(async (m) => {
      for (let i = 0; i < rows.length; i += 100)
        await this.insertRows(m, meta.tableName, meta.columns, rows.slice(i, i + 100));
      if (spec.name === 'channels')
        for (const ch of rows) await this.channels.syncAbilities(m, ch as unknown as Channel);
      await this.record(m, spec.name, ids);
    });
  }

  /**
   * A plain INSERT with every column, ids included: the ORM's insert() leaves generated ids to the
   * database on PostgreSQL, and the ids must stay those of the source (tokens, logs and codes refer to them).
   */
  private async insertRows(
    m: EntityManager,
    table: string,
    columns: ColumnMetadata[],
    rows: Array<Record<string, unknown>>,
  ): Promise<void> {
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const marks = columns.map((col) => {
        params.push(this.ds.driver.preparePersistentValue(row[col.databaseName], col));
        return this.ph(params.length);
      });
      return `(${marks.join(', ')})`;
    });
    await m.query(
      `INSERT INTO ${this.esc(table)} (${columns.map((c) => this.esc(c.databaseName)).join(', ')}) VALUES ${tuples.join(', ')}`,
      params,
    );
  }

  /** PostgreSQL sequences do not follow ids written explicitly. */
  private async resetSequence(table: string): Promise<void> {
    if (this.ds.options.type !== 'postgres') return;
    await this.ds.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${this.esc(table)}), 1))`,
    );
  }

  private async targetCount(table: string): Promise<number> {
    return this.count(
      `SELECT COUNT(*) AS n FROM ${this.esc(table)} t JOIN ${this.esc(LEDGER_TABLE)} l ON l.tbl = ${this.ph(1)} AND l.row_id = t.id`,
      [table],
    );
  }

  /** Sum of the quota column over the rows the import created, added up exactly in batches. */
  private async targetQuota(spec: TableSpec, column: string): Promise<bigint> {
    if (!this.ledgerReady) return 0n;
    let sum = 0n;
    let after = INT32_MIN;
    for (;;) {
      const rows: Array<{ id: unknown; q: unknown }> = await this.ds.query(
        `SELECT t.id AS id, t.${this.esc(column)} AS q FROM ${this.esc(spec.name)} t ` +
          `JOIN ${this.esc(LEDGER_TABLE)} l ON l.tbl = ${this.ph(1)} AND l.row_id = t.id ` +
          `WHERE t.id > ${this.ph(2)} ORDER BY t.id LIMIT 5000`,
        [spec.name, after],
      );
      if (!rows.length) return sum;
      for (const r of rows) sum += toBigInt(r.q) ?? 0n;
      after = Number(rows[rows.length - 1].id);
    }
  }

  // ---- options ------------------------------------------------------------------------------

  private async importOptions(): Promise<void> {
    const rows = (await this.src.all('options')).map((r) => ({ key: String(r.key), value: toText(r.value) }));
    const outcomes = mapOptions(rows);
    const mine = await this.ledgerKeys('options');
    let existing = new Set<string>();
    try {
      existing = new Set((await this.ds.getRepository(OptionRow).find()).map((o) => o.key));
    } catch {
      // dry run before the schema exists
    }
    const writes = new Map<string, string>();
    let placed = 0;
    let rejected = 0;
    for (const [key, o] of outcomes) {
      if (o.kind === 'skip') {
        this.report.reject('options', key, o.reason);
        rejected++;
        continue;
      }
      if (existing.has(o.key) && !mine.has(o.key)) {
        this.report.reject('options', key, "the target's own value is kept");
        rejected++;
        continue;
      }
      if (o.changed) this.report.change('options', key, o.changed);
      writes.set(o.key, o.def.secret ? this.state.crypto.encrypt(o.value) : o.value);
      placed++;
    }
    if (!this.dryRun && writes.size) {
      await this.ds.transaction(async (m) => {
        for (const [key, value] of writes) await m.getRepository(OptionRow).upsert({ key, value }, ['key']);
        await this.record(
          m,
          'options',
          [...writes.keys()].map((key) => ({ id: 0, key })),
        );
      });
    }
    let stored = placed;
    if (!this.dryRun) {
      const now = new Set((await this.ds.getRepository(OptionRow).find()).map((o) => o.key));
      stored = [...outcomes.values()].filter(
        (o) => o.kind === 'set' && writes.has(o.key) && now.has(o.key),
      ).length;
    }
    this.recon.push({
      table: 'options',
      sourceRows: rows.length,
      imported: placed,
      rejected,
      targetRows: stored,
      sourceQuota: null,
      rejectedQuota: 0n,
      adjustedQuota: 0n,
      targetQuota: null,
    });
  }

  /** A deployment whose root came over needs no setup wizard. */
  private async finish(): Promise<void> {
    if (this.opts.merge) return;
    const setups = await this.ds.getRepository(Setup).count();
    const roots = await this.count(
      `SELECT COUNT(*) AS n FROM ${this.esc('users')} WHERE role = ${this.ph(1)} AND deleted_at IS NULL`,
      [Role.Root],
    );
    if (!setups && roots > 0)
      await this.ds.getRepository(Setup).insert({ singleton: 1, version, initialized_at: this.now });
  }
}
