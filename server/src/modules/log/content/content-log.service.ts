import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { fail, forbidden } from '../../../common/app-error';
import { CacheBus } from '../../../common/cache-bus';
import type { AuthUser } from '../../../common/http/request-context';
import { nowSeconds } from '../../../common/time';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { LogEntry, Role } from '../../../database/entities';
import { OptionService } from '../../option';
import { ContentTap } from './content-tap';
import { reassemble } from './reassemble';
import { capText, parsePaths, redactHeaders, redactKeys, redactPaths, secretForms } from './redact';

/** What the relay knows of a finished call whose content is stored. */
export interface ContentCall {
  requestId: string;
  userId: number;
  /** Unix ms the call started (the log row's time). */
  startedAt: number;
  format: string;
  mode: string;
  path: string;
  stream: boolean;
  /** The parsed request body (JSON, or a multipart form's text fields). */
  body: unknown;
  multipart: boolean;
  headers: Record<string, unknown> | undefined;
  /** The caller's API key and the channel's keys: never stored. */
  secrets: string[];
  channelId: number;
}

/** What was answered, as kept: a relay call's tap, or a session's or submission's collected text. */
export interface CapturedAnswer {
  text(): string;
  /** More was answered than could be kept. */
  overflow: boolean;
}

interface Pending {
  call: ContentCall;
  tap: CapturedAnswer;
  status: number;
  contentType: string;
}

interface Row {
  request_id: string;
  user_id: number;
  created_at: number;
  request: string;
  response: string;
  meta: string;
}

const COLUMNS = ['request_id', 'user_id', 'created_at', 'request', 'response', 'meta'] as const;
const FLUSH_MS = 1000;
const FLUSH_AT = 64;
const INSERT_CHUNK = 50;
const PURGE_EVERY_MS = 3600_000;
const FIRST_PURGE_MS = 60_000;
/** A stream is captured up to this many times the stored cap (it is reassembled into much less). */
const CAPTURE_FACTOR = 16;
const CAPTURE_MAX = 32 * 1024 * 1024;

/**
 * Content logs (opt-in): the request and response bodies of relay calls of the channels, tokens and
 * users an admin switched on, redacted, capped and kept for a retention period, in `log_contents`
 * apart from the log table. The relay asks `wants()` once per call (a boolean when nothing is switched
 * on); rows are built and written in batches off the request path; the master node purges old rows.
 */
@Injectable()
export class ContentLogService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ContentLog');
  private tokens = new Set<number>();
  private users = new Set<number>();
  /** Some token or user has content logging on (channels are asked per attempt). */
  active = false;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private reloadTimer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private purgeTimer: NodeJS.Timeout | null = null;
  private firstPurge: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
    // Another node switched a token or a user: read the switches again (debounced).
    const later = (e: { remote: boolean }) => {
      if (!e.remote || this.reloadTimer) return;
      this.reloadTimer = setTimeout(() => {
        this.reloadTimer = null;
        void this.reload();
      }, 500);
      this.reloadTimer.unref();
    };
    this.bus.on('tokens', later);
    this.bus.on('users', later);
    this.syncTimer = setInterval(
      () => void this.reload(),
      Math.max(1, this.config.syncFrequencySeconds) * 1000,
    );
    this.syncTimer.unref();
    if (this.config.nodeType === 'master') {
      const purge = () =>
        void this.purge().catch((err: Error) => this.logger.warn(`purge failed: ${err.message}`));
      // Once soon after the start (a node restarted more often than hourly still purges), then hourly.
      this.firstPurge = setTimeout(purge, FIRST_PURGE_MS);
      this.firstPurge.unref();
      this.purgeTimer = setInterval(purge, PURGE_EVERY_MS);
      this.purgeTimer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    for (const t of [this.reloadTimer, this.timer, this.firstPurge]) if (t) clearTimeout(t);
    for (const t of [this.syncTimer, this.purgeTimer]) if (t) clearInterval(t);
    await this.flush();
  }

  private flagTrue(): string {
    return this.ds.options.type === 'postgres' ? 'content_log = true' : 'content_log = 1';
  }

  /** Reads which tokens and users have content logging on. */
  async reload(): Promise<void> {
    try {
      const [tokens, users] = await Promise.all([
        this.ds.query<Array<{ id: number | string }>>(`SELECT id FROM tokens WHERE ${this.flagTrue()}`),
        this.ds.query<Array<{ id: number | string }>>(`SELECT id FROM users WHERE ${this.flagTrue()}`),
      ]);
      this.tokens = new Set(tokens.map((r) => Number(r.id)));
      this.users = new Set(users.map((r) => Number(r.id)));
      this.active = this.tokens.size > 0 || this.users.size > 0;
    } catch (err) {
      this.logger.warn(`content-log switches not read: ${(err as Error).message}`);
    }
  }

  /** Whether calls of this token or user store their content (ask only when `active`). */
  wants(tokenId: number, userId: number): boolean {
    return (tokenId > 0 && this.tokens.has(tokenId)) || this.users.has(userId);
  }

  /** A channel stores the content of the calls it serves when its setting says `content_log: true`. */
  static channelWants(setting: Record<string, unknown>): boolean {
    return setting.content_log === true;
  }

  /** Starts copying what the call writes to its caller. */
  tap(res: ServerResponse): ContentTap {
    const cap = this.cap();
    return new ContentTap(res, Math.min(CAPTURE_MAX, cap * CAPTURE_FACTOR));
  }

  /** The call is over (answered or refused): its content is queued for the next batch. */
  record(call: ContentCall, tap: ContentTap, res: ServerResponse): void {
    this.recordAnswer(call, tap, res.statusCode, String(res.getHeader('content-type') ?? ''));
  }

  /**
   * Content that is not a relay call's HTTP answer (a realtime session's messages, a task submission's
   * upstream answer): queued like `record`, with the answer's status and type given.
   */
  recordAnswer(call: ContentCall, answer: CapturedAnswer, status: number, contentType: string): void {
    this.queue.push({ call, tap: answer, status, contentType });
    if (this.queue.length >= FLUSH_AT) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Bytes a collector of messages keeps per direction before it marks an overflow. */
  captureLimit(): number {
    return Math.min(CAPTURE_MAX, this.cap() * CAPTURE_FACTOR);
  }

  /** Switches a token or a user on or off (admins). */
  /**
   * Switches a token's or a user's content logging. The role rule applies to the account whose
   * content it is: an admin acts only on lower roles (and on themselves), root on anyone.
   */
  async setSwitch(actor: AuthUser, scope: 'token' | 'user', id: number, enabled: boolean): Promise<boolean> {
    const table = scope === 'token' ? 'tokens' : 'users';
    const owner = await this.ds.query<Array<{ user_id: unknown; role: unknown }>>(
      scope === 'token'
        ? `SELECT u.id AS user_id, u.role AS role FROM tokens t JOIN users u ON u.id = t.user_id
           WHERE t.id = ${Math.floor(id)} AND t.deleted_at IS NULL`
        : `SELECT id AS user_id, role FROM users WHERE id = ${Math.floor(id)} AND deleted_at IS NULL`,
    );
    if (!owner.length) throw fail(scope === 'token' ? 'token_not_found' : 'user_not_found');
    const ownerId = Number(owner[0].user_id);
    if (actor.role < Role.Root && ownerId !== actor.id && Number(owner[0].role) >= actor.role)
      throw forbidden('cannot_act_on_peer');
    const value = this.ds.options.type === 'postgres' ? String(enabled) : enabled ? '1' : '0';
    await this.ds.query(`UPDATE ${table} SET content_log = ${value} WHERE id = ${Math.floor(id)}`);
    const set = scope === 'token' ? this.tokens : this.users;
    if (enabled) set.add(id);
    else set.delete(id);
    this.active = this.tokens.size > 0 || this.users.size > 0;
    this.bus.publish(scope === 'token' ? 'tokens' : 'users', [id]);
    return enabled;
  }

  async getSwitch(scope: 'token' | 'user', id: number): Promise<boolean> {
    const table = scope === 'token' ? 'tokens' : 'users';
    const rows = await this.ds.query<Array<{ content_log: unknown }>>(
      `SELECT content_log FROM ${table} WHERE id = ${Math.floor(id)} AND deleted_at IS NULL`,
    );
    if (!rows.length) throw fail(scope === 'token' ? 'token_not_found' : 'user_not_found');
    const v = rows[0].content_log;
    return v === true || v === 1 || v === '1' || v === 't';
  }

  private cap(): number {
    return Math.max(1024, this.options.num('ContentLogMaxBytes'));
  }

  /** Writes every queued call's content; resolves when written. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(async () => {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        const rows: Row[] = [];
        for (const p of batch) {
          try {
            rows.push(this.row(p));
          } catch (err) {
            this.logger.warn(`content of ${p.call.requestId} not stored: ${(err as Error).message}`);
          }
        }
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          try {
            await this.insert(rows.slice(i, i + INSERT_CHUNK));
          } catch (err) {
            // Content is a debugging aid: a failed batch is reported, never retried against the relay.
            this.logger.error(`content batch of ${rows.length} not stored: ${(err as Error).message}`);
          }
        }
      }
    });
    return this.flushing;
  }

  private async insert(rows: Row[]): Promise<void> {
    if (!rows.length) return;
    const driver = this.ds.driver;
    const pg = this.ds.options.type === 'postgres';
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const marks = COLUMNS.map((c) => {
        params.push(row[c]);
        return pg ? `$${params.length}` : '?';
      });
      return `(${marks.join(', ')})`;
    });
    const cols = COLUMNS.map((c) => driver.escape(c)).join(', ');
    await this.ds.query(
      `INSERT INTO ${driver.escape('log_contents')} (${cols}) VALUES ${tuples.join(', ')}`,
      params,
    );
  }

  /** One stored row: request and answer redacted, then cut to the cap. */
  private row(p: Pending): Row {
    const { call, tap } = p;
    const cap = this.cap();
    const paths = parsePaths(this.options.get('ContentLogRedactPaths'));
    const secrets = secretForms(call.secrets);

    let requestText = '';
    if (call.body !== null && call.body !== undefined) {
      const body: unknown = structuredClone(call.body);
      redactPaths(body, paths);
      requestText = redactKeys(JSON.stringify(body), secrets);
    }
    const request = capText(requestText, cap);

    const raw = tap.text();
    let kind: 'json' | 'stream' | 'sse' | 'text' | 'binary' | 'empty' = 'text';
    let responseText = '';
    const isSse = p.contentType.includes('event-stream');
    if (!raw) kind = 'empty';
    else if (isSse && !tap.overflow) {
      const whole = reassemble(raw, call.format);
      if (whole) {
        redactPaths(whole, paths);
        responseText = JSON.stringify(whole);
        kind = 'stream';
      } else {
        responseText = raw;
        kind = 'sse';
      }
    } else if (p.contentType.includes('json') && !tap.overflow) {
      try {
        const parsed: unknown = JSON.parse(raw);
        redactPaths(parsed, paths);
        responseText = JSON.stringify(parsed);
        kind = 'json';
      } catch {
        responseText = raw;
      }
    } else if (/^(audio|image|video)\/|octet-stream/.test(p.contentType)) {
      kind = 'binary';
      responseText = '';
    } else {
      // Larger than the capture (or not JSON): configured paths cannot be applied to a cut text, so
      // with paths configured a cut answer is not kept.
      responseText = tap.overflow && paths.length ? '' : raw;
      kind = isSse ? 'sse' : 'text';
    }
    const response = capText(redactKeys(responseText, secrets), cap);
    const responseTruncated = response.truncated || (tap.overflow && kind !== 'binary');

    const meta: Record<string, unknown> = {
      format: call.format,
      mode: call.mode,
      path: call.path,
      stream: call.stream,
      status: p.status,
      channel_id: call.channelId,
      content_type: p.contentType,
      headers: redactHeaders(call.headers, secrets),
      multipart: call.multipart || undefined,
      request_bytes: Buffer.byteLength(requestText),
      request_truncated: request.truncated,
      response_kind: kind,
      response_truncated: responseTruncated,
      response_omitted: tap.overflow && paths.length > 0 && !responseText ? true : undefined,
      cap,
    };
    return {
      request_id: call.requestId,
      user_id: call.userId,
      created_at: Math.floor(call.startedAt / 1000),
      request: request.text,
      response: response.text,
      meta: JSON.stringify(meta),
    };
  }

  /** Deletes content older than the retention period; the number of rows deleted. */
  async purge(now = nowSeconds()): Promise<number> {
    const days = Math.max(1, this.options.num('ContentLogRetentionDays'));
    const res = await this.ds
      .createQueryBuilder()
      .delete()
      .from('log_contents')
      .where('created_at < :before', { before: now - days * 86400 })
      .execute();
    return res.affected ?? 0;
  }

  /**
   * A log row's stored content. Admins read any; a user reads the content of their own rows, and only
   * while the operator lets users see it.
   */
  async read(me: AuthUser, logId: number): Promise<Record<string, unknown>> {
    const admin = me.role >= Role.Admin;
    if (!admin && !this.options.bool('ContentLogUserViewEnabled'))
      throw forbidden('content_log_view_forbidden');
    const log = await this.ds.getRepository(LogEntry).findOne({
      where: { id: logId },
      select: { id: true, user_id: true, request_id: true, created_at: true },
    });
    if (!log || (!admin && log.user_id !== me.id) || !log.request_id) throw fail('content_log_not_found');
    const row = await this.ds
      .createQueryBuilder()
      .select([
        'c.request AS request',
        'c.response AS response',
        'c.meta AS meta',
        'c.created_at AS created_at',
      ])
      .from('log_contents', 'c')
      .where('c.request_id = :rid', { rid: log.request_id })
      .andWhere('c.user_id = :uid', { uid: log.user_id })
      .orderBy('c.id', 'DESC')
      .limit(1)
      .getRawOne<Record<string, unknown>>();
    if (!row) throw fail('content_log_not_found');
    const textOf = (k: string) => (typeof row[k] === 'string' ? row[k] : '');
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse(textOf('meta') || '{}') as Record<string, unknown>;
    } catch {
      meta = {};
    }
    if (!admin) delete meta.channel_id;
    return {
      log_id: Number(log.id),
      request_id: log.request_id,
      created_at: Number(row.created_at),
      request: textOf('request'),
      response: textOf('response'),
      meta,
    };
  }
}
