import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { LogEntry, LogType, QuotaData, Token, User } from '../../database/entities';
import { SqliteCheckpoints } from '../../database/sqlite-checkpoints.service';
import { logTextColumns } from '../log';
import { OptionService } from '../option';

/** The consume-log row of a request, minus what the ledger fills in. */
export type LogDraft = Omit<LogEntry, 'id' | 'node_name'>;

/** The parties a request is charged to. tokenId 0 = no token (playground). */
export interface Payer {
  userId: number;
  tokenId: number;
  tokenUnlimited: boolean;
}

/** A reservation made before the upstream call. */
export interface Hold {
  payer: Payer;
  reserved: number;
  /** The consume-log row written with the reservation (so a crash leaves the charge explained). */
  logId: number | null;
  /** A trusted hold: nothing written, this much held against this node's view of the balance. */
  soft?: number;
}

export interface Settlement {
  hold: Hold;
  channelId: number;
  /** The request's final charge (the log's quota). 0 with `failed` = full refund. */
  charged: number;
  failed: boolean;
  /** The consume-log row; null when consume logs are off (or a failed request: the placeholder goes). */
  log: LogDraft | null;
  /** Hourly dashboard aggregate (quota_data). */
  stat: { username: string; model: string; tokens: number } | null;
}

export class InsufficientQuota extends Error {
  constructor(readonly who: 'user' | 'token') {
    super(`insufficient ${who} quota`);
  }
}

/** The content and other columns of a call's log row closed by the recovery after a stop. */
function interruptedText(
  other: string | null | undefined,
  reserved: number,
): { content: string; other: string } {
  let kept: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(other || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      kept = parsed as Record<string, unknown>;
  } catch {
    kept = {};
  }
  const columns = logTextColumns({ key: 'log_text_call_interrupted', params: { quota: reserved } }, kept);
  return { content: columns.content, other: JSON.stringify(columns.other) };
}

/** The content of a reservation's consume-log row until its call settles. */
export const IN_PROGRESS = 'in progress';

/** Whether a relay hold's row says its token was debited (null: not a relay hold, e.g. a task's). */
function tokenWasDebited(other: string | null | undefined): boolean | null {
  try {
    const o = JSON.parse(other || '{}') as { hold_token?: unknown };
    return typeof o.hold_token === 'boolean' ? o.hold_token : null;
  } catch {
    return null;
  }
}

/** The columns a consume or error log row is written with. */
export const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'token_id',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'group',
  'ip',
  'request_id',
  'node_name',
  'other',
] as const satisfies ReadonlyArray<keyof LogEntry>;

/**
 * A log row as the SQLite INSERT's parameters in LOG_COLUMNS' order, written into `into` (one array
 * reused per batch). Named fields rather than a loop over the column names: `row[name]` with a
 * different name each time is a megamorphic lookup, about 150 ns a row against 15.
 */
export function sqliteLogParams(r: Partial<LogEntry>, into: unknown[]): unknown[] {
  into[0] = r.user_id ?? null;
  into[1] = r.created_at ?? null;
  into[2] = r.type ?? null;
  into[3] = r.content ?? null;
  into[4] = r.username ?? null;
  into[5] = r.token_name ?? null;
  into[6] = r.token_id ?? null;
  into[7] = r.model_name ?? null;
  into[8] = r.quota ?? null;
  into[9] = r.prompt_tokens ?? null;
  into[10] = r.completion_tokens ?? null;
  into[11] = r.use_time ?? null;
  into[12] = r.is_stream ? 1 : 0;
  into[13] = r.channel_id ?? null;
  into[14] = r.group ?? null;
  into[15] = r.ip ?? null;
  into[16] = r.request_id ?? null;
  into[17] = r.node_name ?? null;
  into[18] = r.other ?? null;
  return into;
}

const FLUSH_MS = 200;
const FLUSH_AT = 256;
const INSERT_CHUNK = 400;
/**
 * SQLite writes a batch's log rows on the event loop (10–20 µs each with the log table's indexes): the
 * loop is let go every this many rows, so a full batch holds it about half a millisecond at a time
 * instead of several milliseconds at once, and calls in flight are not held up by the whole batch.
 */
const SQLITE_ROWS_PER_TURN = 32;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const noop = (): void => undefined;
/** Most reserves of one user committed together. */
const RESERVE_BATCH = 64;

interface PendingReserve {
  payer: Payer;
  amount: number;
  log: LogDraft | null;
  resolve: (logId: number | null) => void;
  reject: (err: unknown) => void;
}

interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
interface SqliteDb {
  prepare(sql: string): SqliteStatement;
}
interface SqliteReserveStatements {
  takeUser: SqliteStatement;
  giveUser: SqliteStatement;
  takeToken: SqliteStatement;
  insertLog: SqliteStatement;
}

/** better-sqlite3's one connection (the open transaction's too: it is synchronous and has only one). */
function sqliteConnection(m: EntityManager): SqliteDb {
  return (m.connection.driver as unknown as { databaseConnection: SqliteDb }).databaseConnection;
}

/**
 * The quota ledger: the only code that moves money for model traffic.
 *
 * - reserve(): an atomic conditional delta on the user (and the token) in its own transaction,
 *   together with the request's consume-log row carrying the reserved amount. Trusted balances
 *   skip it (see relay.service) and reserve 0.
 * - settle(): queued; a flush every ≤ 200 ms applies, in ONE transaction, every queued balance
 *   difference, usage counter, log row and dashboard aggregate (quota_data). So the sum of logged charges always
 *   equals the balance change, even after kill -9 (a crash loses at most the open window: both the
 *   charges and their logs). SIGTERM flushes.
 * - Admission is conditional, settlement is not: a served call is charged its full price even when
 *   that takes the balance below zero (it was admitted while the balance covered its reservation);
 *   the next call is then refused until a top-up.
 * - What this node has admitted or settled but not yet written (trusted holds in flight, queued
 *   settlements) is owed: the balance a reservation must find is the database's minus what is owed,
 *   so concurrent calls on one node are admitted only while the balance covers all of them.
 */
@Injectable()
export class QuotaLedgerService
  implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown
{
  private readonly logger = new Logger('QuotaLedger');
  private queue: Settlement[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** The transaction of the settlement batch being written, while it is open. */
  private writing: Promise<void> | null = null;
  /** The database's balances as last read, kept current with what this node commits (never written back). */
  private readonly balances = new Map<number, { quota: number; at: number }>();
  /** Per user: trusted holds in flight plus settled differences not yet flushed (this node's). */
  private readonly owed = new Map<number, number>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bus: CacheBus,
    private readonly options: OptionService,
    private readonly checkpoints: SqliteCheckpoints,
  ) {}

  onModuleInit(): void {
    this.bus.on('users', (e) => {
      if (e.keys.length === 0) this.balances.clear();
      else for (const k of e.keys) this.balances.delete(Number(k));
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  /** Reservations a stopped process left open are settled before this one serves anything. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      const n = await this.recoverInterrupted(nowSeconds());
      if (n) this.logger.warn(`${n} call(s) interrupted by the last stop: their reservations were refunded`);
    } catch (err) {
      this.logger.error(`interrupted reservations not settled: ${(err as Error).message}`);
    }
  }

  /**
   * Settles the reservations of calls that cannot still be running: their "in progress" consume-log
   * rows (written with the reservation) become error rows of 0 quota, and the reserved amount goes
   * back to the user and, where it was taken from it, to the token. Which rows: on a single node (no
   * Redis), every one made before `bootAt`; with several nodes, this node's own (NODE_NAME) and, on the
   * master, any older than a day. What those calls delivered before the stop is not known and not charged.
   */
  async recoverInterrupted(bootAt: number): Promise<number> {
    const qb = this.ds
      .getRepository(LogEntry)
      .createQueryBuilder('l')
      .select(['l.id', 'l.user_id', 'l.token_id', 'l.quota', 'l.other'])
      .where('l.type = :type AND l.content = :open AND l.created_at <= :bootAt', {
        type: LogType.Consume,
        open: IN_PROGRESS,
        bootAt,
      })
      // Only the holds of relay calls (they say whether the token was debited). A task's hold is
      // "in progress" too, but its task goes on upstream across a restart and the poller settles it.
      .andWhere('l.other LIKE :marker', { marker: '%"hold_token"%' });
    if (this.config.redisUrl) {
      if (this.config.nodeType === 'master')
        qb.andWhere('(l.node_name = :me OR l.created_at < :stale)', {
          me: this.config.nodeName,
          stale: bootAt - 86_400,
        });
      else qb.andWhere('l.node_name = :me', { me: this.config.nodeName });
    }
    const rows = await qb.orderBy('l.id', 'ASC').getMany();
    let settled = 0;
    for (const row of rows) {
      const reserved = Number(row.quota);
      const fromToken = tokenWasDebited(row.other);
      if (fromToken === null) continue;
      const done = await this.ds.transaction(async (m) => {
        const closed = await m
          .createQueryBuilder()
          .update(LogEntry)
          .set({
            type: LogType.Error,
            quota: 0,
            // Stored as a message key with its parameters: each reader sees it in their language.
            ...interruptedText(row.other, reserved),
          })
          .where('id = :id AND content = :open', { id: row.id, open: IN_PROGRESS })
          .execute();
        if (!closed.affected) return false;
        if (reserved > 0) {
          await m
            .createQueryBuilder()
            .update(User)
            .set({ quota: () => 'quota + :r' })
            .where('id = :id', { id: row.user_id, r: reserved })
            .execute();
          if (fromToken && row.token_id)
            await m
              .createQueryBuilder()
              .update(Token)
              .set({ remain_quota: () => 'remain_quota + :r' })
              .where('id = :id', { id: row.token_id, r: reserved })
              .execute();
        }
        return true;
      });
      if (done) settled++;
    }
    if (settled) this.bus.publish('users', [...new Set(rows.map((r) => r.user_id))]);
    return settled;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /**
   * The user's balance as this node sees it: the database's (re-read after 5 s or any change made
   * elsewhere) minus what this node owes it.
   */
  async balanceOf(userId: number): Promise<number> {
    return this.peekBalance(userId) ?? (await this.storedBalance(userId)) - (this.owed.get(userId) ?? 0);
  }

  /** `balanceOf` without waiting: null when this node has no fresh reading of the stored balance. */
  peekBalance(userId: number): number | null {
    const hit = this.balances.get(userId);
    return hit && Date.now() - hit.at < 5000 ? hit.quota - (this.owed.get(userId) ?? 0) : null;
  }

  private async storedBalance(userId: number): Promise<number> {
    const hit = this.balances.get(userId);
    if (hit && Date.now() - hit.at < 5000) return hit.quota;
    // SQLite: a read made while a batch is being written would see its balance changes before they are
    // committed (one connection) and count them twice with what is still owed; it waits for the batch.
    while (this.writing) await this.writing.then(noop, noop);
    const row = await this.ds
      .getRepository(User)
      .findOne({ where: { id: userId }, select: { id: true, quota: true } });
    const quota = row ? Number(row.quota) : 0;
    this.balances.set(userId, { quota, at: Date.now() });
    return quota;
  }

  /** The database's balance changed by `delta` through this node (a reserve or a flush committed). */
  private committed(userId: number, delta: number): void {
    const hit = this.balances.get(userId);
    if (hit) hit.quota += delta;
  }

  private owe(userId: number, amount: number): void {
    const v = (this.owed.get(userId) ?? 0) + amount;
    if (v === 0) this.owed.delete(userId);
    else this.owed.set(userId, v);
  }

  /**
   * The trusted shortcut: when the balance this node sees is more than `factor` times `amount`, the
   * request is admitted with nothing written; `amount` is held against the balance until it settles.
   * Null when the balance is not that large (the caller reserves for real).
   */
  async holdIfTrusted(payer: Payer, amount: number, factor: number): Promise<Hold | null> {
    return this.trustedHold(payer, amount, factor, await this.balanceOf(payer.userId));
  }

  /** `holdIfTrusted` decided on this node's fresh reading of the balance alone (null without one). */
  holdIfTrustedNow(payer: Payer, amount: number, factor: number): Hold | null {
    const fresh = this.peekBalance(payer.userId);
    return fresh === null ? null : this.trustedHold(payer, amount, factor, fresh);
  }

  private trustedHold(payer: Payer, amount: number, factor: number, balance: number): Hold | null {
    if (balance <= Math.max(amount, 1) * factor) return null;
    this.owe(payer.userId, amount);
    return { payer, reserved: 0, logId: null, soft: amount };
  }

  /**
   * Takes `amount` from the user and the token, or throws InsufficientQuota and changes nothing.
   *
   * Group commit per user: while one transaction for a user is open, that user's next reserves queue
   * and then go together in the next transaction, each in a savepoint of its own (a refused one is
   * rolled back alone). A busy user's row is locked once per batch rather than once per request, and a
   * transaction only ever touches one user (and that user's tokens), so batches cannot deadlock.
   */
  reserve(payer: Payer, amount: number, log: LogDraft | null): Promise<Hold> {
    if (amount <= 0) return Promise.resolve({ payer, reserved: 0, logId: null });
    return new Promise<number | null>((resolve, reject) => {
      const queue = this.reserveQueues.get(payer.userId);
      const item = { payer, amount, log, resolve, reject };
      if (queue) return void queue.push(item);
      this.reserveQueues.set(payer.userId, [item]);
      setImmediate(() => void this.runReserves(payer.userId));
    }).then((logId) => {
      this.committed(payer.userId, -amount);
      return { payer, reserved: amount, logId };
    });
  }

  private readonly reserveQueues = new Map<number, PendingReserve[]>();

  /** Drains one user's queue, batch after batch, until no reserve is waiting. */
  private async runReserves(userId: number): Promise<void> {
    for (;;) {
      const batch = this.reserveQueues.get(userId)!.splice(0, RESERVE_BATCH);
      if (!batch.length) {
        this.reserveQueues.delete(userId);
        return;
      }
      const results: Array<{ id: number | null } | { err: unknown }> = [];
      try {
        await this.ds.transaction(async (m) => {
          results.length = 0;
          if (batch.length === 1) return void results.push({ id: await this.take(m, batch[0]) });
          for (const r of batch) {
            try {
              results.push({ id: await this.take(m, r) });
            } catch (err) {
              if (!(err instanceof InsufficientQuota)) throw err;
              results.push({ err });
            }
          }
        });
      } catch (err) {
        if (batch.length === 1 || err instanceof InsufficientQuota) {
          for (const r of batch) r.reject(err);
          continue;
        }
        // The batch as a whole failed (a lost connection, say): each reserve again in its own transaction.
        for (const r of batch) await this.ds.transaction((m) => this.take(m, r)).then(r.resolve, r.reject);
        continue;
      }
      batch.forEach((r, i) => {
        const out = results[i];
        if ('err' in out) r.reject(out.err);
        else r.resolve(out.id);
      });
    }
  }

  /**
   * One reserve inside a transaction: the conditional deltas and the hold's log row. A refusal leaves
   * nothing of this reserve behind (the user's delta is given back when the token refuses), so the
   * other reserves of the transaction stand without savepoints.
   */
  private async take(m: EntityManager, r: PendingReserve): Promise<number | null> {
    const { payer, amount, log } = r;
    const sqlite = this.sqliteStatements(m);
    if (sqlite) {
      // better-sqlite3 is synchronous and this transaction holds the connection: nothing interleaves.
      if (!sqlite.takeUser.run(amount, payer.userId, amount + this.owedBy(payer.userId)).changes)
        throw new InsufficientQuota('user');
      if (
        payer.tokenId &&
        !payer.tokenUnlimited &&
        !sqlite.takeToken.run(amount, payer.tokenId, amount).changes
      ) {
        sqlite.giveUser.run(amount, payer.userId);
        throw new InsufficientQuota('token');
      }
      if (!log) return null;
      return Number(
        sqlite.insertLog.run(sqliteLogParams({ ...log, quota: amount, node_name: this.config.nodeName }, []))
          .lastInsertRowid,
      );
    }
    const u = await m
      .createQueryBuilder()
      .update(User)
      .set({ quota: () => 'quota - :amount' })
      .where('id = :id AND quota >= :needed', {
        id: payer.userId,
        amount,
        needed: amount + this.owedBy(payer.userId),
      })
      .execute();
    if (!u.affected) throw new InsufficientQuota('user');
    if (payer.tokenId && !payer.tokenUnlimited) {
      const t = await m
        .createQueryBuilder()
        .update(Token)
        .set({ remain_quota: () => 'remain_quota - :amount' })
        .where('id = :id AND remain_quota >= :amount', { id: payer.tokenId, amount })
        .execute();
      if (!t.affected) {
        await m
          .createQueryBuilder()
          .update(User)
          .set({ quota: () => 'quota + :amount' })
          .where('id = :id', { id: payer.userId, amount })
          .execute();
        throw new InsufficientQuota('token');
      }
    }
    if (!log) return null;
    const res = await m
      .getRepository(LogEntry)
      .insert({ ...log, quota: amount, node_name: this.config.nodeName });
    return Number((res.identifiers[0] as { id: number | string }).id);
  }

  /** SQLite: the reserve's statements, prepared once on the one connection (null on other databases). */
  private sqliteStatements(m: EntityManager): SqliteReserveStatements | null {
    if (m.connection.options.type !== 'better-sqlite3') return null;
    if (this.sqliteReserve) return this.sqliteReserve;
    const db = sqliteConnection(m);
    this.sqliteReserve = {
      takeUser: db.prepare('UPDATE "users" SET "quota" = "quota" - ? WHERE "id" = ? AND "quota" >= ?'),
      giveUser: db.prepare('UPDATE "users" SET "quota" = "quota" + ? WHERE "id" = ?'),
      takeToken: db.prepare(
        'UPDATE "tokens" SET "remain_quota" = "remain_quota" - ? WHERE "id" = ? AND "remain_quota" >= ?',
      ),
      insertLog: this.sqliteLogInsert(db),
    };
    return this.sqliteReserve;
  }

  private sqliteReserve: SqliteReserveStatements | null = null;

  /** What this node owes the user's stored balance (a reservation must find it on top of its own amount). */
  private owedBy(userId: number): number {
    return this.owed.get(userId) ?? 0;
  }

  settle(s: Settlement): void {
    const userId = s.hold.payer.userId;
    this.owe(userId, s.charged - s.hold.reserved - (s.hold.soft ?? 0));
    this.queue.push(s);
    if (this.queue.length >= FLUSH_AT) void this.flush(FLUSH_AT);
    else this.flushLater();
  }

  private flushLater(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Writes the queued settlements; resolves when they are committed. By default every one of them;
   * with `least`, only batches of at least that many, the rest left to the timer: a batch's fixed work
   * (its transaction, the balance and counter updates, the commit's index pages) is shared by a full
   * batch rather than repeated for the few calls settled while the previous batch was written.
   */
  flush(least = 1): Promise<void> {
    if (this.timer && least === 1) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(async () => {
      while (this.queue.length >= least) {
        // At most FLUSH_AT per transaction: what arrives while one is written (SQLite lets the event
        // loop go between its rows) waits for the next, so no transaction grows with the traffic.
        const batch = this.queue.length > FLUSH_AT ? this.queue.splice(0, FLUSH_AT) : this.queue;
        if (batch === this.queue) this.queue = [];
        try {
          const writing = this.ds.transaction((m) => this.apply(m, batch));
          this.writing = writing;
          try {
            await writing;
          } finally {
            this.writing = null;
          }
        } catch (err) {
          // Nothing of the batch was written: put it back and retry on the next flush.
          this.logger.error(`settlement batch of ${batch.length} failed: ${(err as Error).message}`);
          this.queue = batch.concat(this.queue);
          if (!this.timer) {
            this.timer = setTimeout(() => void this.flush(), 1000);
            this.timer.unref();
          }
          return;
        }
        // Committed: nothing from here on may send the batch back to the queue (it would be charged twice).
        for (const s of batch) {
          const delta = s.charged - s.hold.reserved;
          this.owe(s.hold.payer.userId, -delta);
          this.committed(s.hold.payer.userId, -delta);
        }
        try {
          this.checkpoints.wrote(batch.length);
        } catch (err) {
          this.logger.warn(`write-rate report failed: ${(err as Error).message}`);
        }
      }
      if (this.queue.length) this.flushLater();
    });
    return this.flushing;
  }

  private async apply(m: EntityManager, batch: Settlement[]): Promise<void> {
    const now = nowSeconds();
    const byUser = new Map<number, Settlement[]>();
    for (const s of batch) {
      const list = byUser.get(s.hold.payer.userId) ?? [];
      list.push(s);
      byUser.set(s.hold.payer.userId, list);
    }
    // Rows are locked in id order (users, then tokens, then channels), so two flushes cannot deadlock.
    for (const [userId, list] of [...byUser].sort((a, b) => a[0] - b[0]))
      await this.applyUser(m, userId, list);

    const tokens = new Map<number, { delta: number; used: number; unlimited: boolean }>();
    const channels = new Map<number, number>();
    for (const s of batch) {
      const { tokenId, tokenUnlimited } = s.hold.payer;
      if (tokenId) {
        const t = tokens.get(tokenId) ?? { delta: 0, used: 0, unlimited: tokenUnlimited };
        t.delta += s.charged - s.hold.reserved;
        t.used += s.charged;
        tokens.set(tokenId, t);
      }
      if (s.channelId && s.charged) channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + s.charged);
    }
    for (const [id, t] of [...tokens].sort((a, b) => a[0] - b[0])) {
      // The token's remaining quota is a limit, not money: it floors at zero.
      if (t.unlimited)
        await this.write(
          m,
          'UPDATE "tokens" SET "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?',
          [t.used, now, id],
        );
      else
        await this.write(
          m,
          'UPDATE "tokens" SET "remain_quota" = CASE WHEN "remain_quota" > ? THEN "remain_quota" - ? ELSE 0 END, "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?',
          [t.delta, t.delta, t.used, now, id],
        );
    }
    for (const [id, used] of [...channels].sort((a, b) => a[0] - b[0]))
      await this.write(m, 'UPDATE "channels" SET "used_quota" = "used_quota" + ? WHERE "id" = ?', [used, id]);

    // New rows are the settlements' drafts as they are: the charge and the node are set here, on the
    // draft the settlement owns (no copy per row).
    const inserts: Partial<LogEntry>[] = [];
    for (const s of batch) {
      if (s.hold.logId !== null) {
        if (s.log)
          await m.getRepository(LogEntry).update({ id: s.hold.logId }, { ...s.log, quota: s.charged });
        else await m.getRepository(LogEntry).delete({ id: s.hold.logId });
      } else if (s.log) {
        const row: Partial<LogEntry> = s.log;
        row.quota = s.charged;
        row.node_name = this.config.nodeName;
        inserts.push(row);
      }
    }
    if (inserts.length && inserts.length <= INSERT_CHUNK) await this.insertLogs(m, inserts);
    else if (inserts.length)
      for (let i = 0; i < inserts.length; i += INSERT_CHUNK)
        await this.insertLogs(m, inserts.slice(i, i + INSERT_CHUNK));

    await this.applyStats(m, batch);
  }

  /** SQLite: one prepared single-row INSERT, run per row (preparing a new multi-row statement per batch costs more). */
  private sqliteInsert: SqliteStatement | null = null;

  private sqliteLogInsert(db: SqliteDb): SqliteStatement {
    this.sqliteInsert ??= db.prepare(
      `INSERT INTO "logs" (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`,
    );
    return this.sqliteInsert;
  }

  /** The batch's UPDATE statements: SQLite's prepared once, the others' texts in their dialect. */
  private readonly batchStatements = new Map<string, SqliteStatement>();
  private readonly dialectTexts = new Map<string, string>();

  /**
   * Runs one of a batch's UPDATEs, written once with `"quoted"` names and `?` parameters, and returns
   * the rows it changed. SQLite runs it as a statement prepared once (the ORM's builder inlined the
   * numbers into new SQL text for every batch, prepared anew each time); MySQL gets backquoted names
   * and PostgreSQL numbered parameters.
   */
  private async write(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
    const type = m.connection.options.type;
    if (type === 'better-sqlite3') {
      let st = this.batchStatements.get(sql);
      if (!st) this.batchStatements.set(sql, (st = sqliteConnection(m).prepare(sql)));
      return st.run(params).changes;
    }
    let text = this.dialectTexts.get(sql);
    if (text === undefined) {
      let n = 0;
      text = type === 'postgres' ? sql.replace(/\?/g, () => `$${++n}`) : sql.replace(/"/g, '`');
      this.dialectTexts.set(sql, text);
    }
    const res = await m.queryRunner!.query(text, params, true);
    return res.affected ?? 0;
  }

  /**
   * A multi-row parameterized INSERT of log rows. The entity path of the ORM costs more CPU than the
   * database itself at relay rates (metadata walks, and a read-back of defaults on SQLite).
   */
  private async insertLogs(m: EntityManager, rows: Partial<LogEntry>[]): Promise<void> {
    const driver = m.connection.driver;
    if (m.connection.options.type === 'better-sqlite3') {
      // Same connection as the open transaction (better-sqlite3 is synchronous and has only one).
      const insert = this.sqliteLogInsert(sqliteConnection(m));
      const params = new Array<unknown>(LOG_COLUMNS.length);
      for (let i = 0; i < rows.length; i++) {
        if (i > 0 && i % SQLITE_ROWS_PER_TURN === 0) await nextTurn();
        insert.run(sqliteLogParams(rows[i], params));
      }
      return;
    }
    const pg = m.connection.options.type === 'postgres';
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const marks = LOG_COLUMNS.map((c) => {
        const v = row[c];
        // PostgreSQL has a real boolean column; SQLite and MySQL store 0/1.
        params.push(c === 'is_stream' ? (pg ? !!v : v ? 1 : 0) : (v ?? null));
        return pg ? `$${params.length}` : '?';
      });
      return `(${marks.join(', ')})`;
    });
    const cols = LOG_COLUMNS.map((c) => driver.escape(c)).join(', ');
    await m.query(`INSERT INTO ${driver.escape('logs')} (${cols}) VALUES ${tuples.join(', ')}`, params);
  }

  /** One user's share of a batch: every charge in full (the balance may end below zero), refunds back. */
  private async applyUser(m: EntityManager, userId: number, list: Settlement[]): Promise<void> {
    let delta = 0;
    for (const s of list) delta += s.charged - s.hold.reserved;
    // A refund (negative difference) gives back; the balance may end below zero after a full charge.
    if (delta !== 0)
      await this.write(m, 'UPDATE "users" SET "quota" = "quota" - ? WHERE "id" = ?', [delta, userId]);
    let used = 0;
    let requests = 0;
    for (const s of list) {
      used += s.charged;
      if (!s.failed) requests++;
    }
    if (used || requests)
      await this.write(
        m,
        'UPDATE "users" SET "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? WHERE "id" = ?',
        [used, requests, userId],
      );
  }

  /**
   * The dashboard aggregates (quota_data): nothing when DataExportEnabled is off; otherwise one row per
   * user, model, node and DataExportInterval minutes (the dashboard's finest time resolution).
   */
  private async applyStats(m: EntityManager, batch: Settlement[]): Promise<void> {
    const options = this.options;
    if (!options.bool('DataExportEnabled')) return;
    const minutes = Math.floor(options.num('DataExportInterval'));
    const interval = (minutes >= 1 && minutes <= 1440 ? minutes : 5) * 60;
    const rows = new Map<string, QuotaData>();
    for (const s of batch) {
      if (!s.stat || s.failed) continue;
      const bucket = Math.floor((s.log?.created_at ?? nowSeconds()) / interval) * interval;
      const key = `${s.hold.payer.userId}\u0000${s.stat.model}\u0000${bucket}`;
      const row =
        rows.get(key) ??
        Object.assign(new QuotaData(), {
          user_id: s.hold.payer.userId,
          username: s.stat.username,
          model_name: s.stat.model,
          created_at: bucket,
          token_used: 0,
          count: 0,
          quota: 0,
          node_name: this.config.nodeName,
        });
      row.token_used += s.stat.tokens;
      row.count += 1;
      row.quota += s.charged;
      rows.set(key, row);
    }
    for (const r of rows.values()) {
      const changed = await this.write(
        m,
        'UPDATE "quota_data" SET "token_used" = "token_used" + ?, "count" = "count" + ?, "quota" = "quota" + ? WHERE "user_id" = ? AND "model_name" = ? AND "created_at" = ? AND "node_name" = ?',
        [r.token_used, r.count, r.quota, r.user_id, r.model_name, r.created_at, r.node_name],
      );
      if (!changed) await m.getRepository(QuotaData).insert(r);
    }
  }
}
