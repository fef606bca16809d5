/**
 * Channel affinity: the requests of one agent session keep to the channel (and key) that served the
 * session before, for `channel_affinity.ttl_seconds`, so the provider's prompt cache keeps hitting.
 *
 * A session is named, in this order, by an operator rule (`channel_affinity.rules`: the first rule whose
 * `model` pattern, `format`, `mode` and `path` prefix match and whose `header` or `json` path holds a value), the
 * body's `prompt_cache_key` (OpenAI chat and Responses), one of the headers of
 * `channel_affinity.headers` (Codex's `session_id`...), or Anthropic's `metadata.user_id` (Claude Code
 * puts its session id there). The session is scoped to the user, group and model: two users never share
 * one, whatever they send.
 *
 * The remembered channel is used while it is enabled, serves the request and has not failed for it;
 * otherwise the usual selection runs and the session moves to the channel chosen. Sessions live in
 * memory (bounded), or with REDIS_CONN_STRING in Redis (`${REDIS_PREFIX}:aff:<hash>`) so every node
 * routes a session alike; an unreachable Redis falls back to memory.
 */
import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { RedisBusService } from '../../../common/redis-bus.service';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { MetricsService } from '../../metrics';
import { OptionService } from '../../option';
import type { RelayContext } from '../relay-context';
import type { JsonObject } from '../types';
import { headerNames, headerValue } from './header-names';

/** What a session remembers: the channel and the index of the key it used. */
export interface AffinityTarget {
  channelId: number;
  keyIndex: number;
}

/** An operator rule naming the session of matching requests. */
interface AffinityRule {
  /** Regular expression the requested model must match (all models when absent). */
  model?: string;
  /** Caller's wire format (openai, anthropic, gemini, responses) and relay mode (chat, responses...). */
  format?: string;
  mode?: string;
  /** The request path must start with this (`/v1/messages`, `/v1beta/models/`...). */
  path?: string;
  /** The header holding the session id... */
  header?: string;
  /** ...or a dot path into the JSON body (`metadata.session`). */
  json?: string;
}

const MEMORY_MAX = 100_000;

type SessionContext = Pick<RelayContext, 'req' | 'model' | 'group'> & { user: { id: number } };

@Injectable()
export class ChannelAffinity {
  private readonly logger = new Logger('ChannelAffinity');
  private readonly memory = new Map<string, { target: AffinityTarget; expires: number }>();
  private readonly prefix: string;
  private warnedAt = 0;

  constructor(
    private readonly options: OptionService,
    private readonly redis: RedisBusService,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.redisPrefix}:aff:`;
  }

  /** The session key of a request (a hash), or null when affinity is off or the request names none. */
  sessionOf(ctx: SessionContext): string | null {
    if (!this.options.bool('channel_affinity.enabled')) return null;
    const id = this.sessionId(ctx);
    if (!id) return null;
    return createHash('sha256')
      .update(`${ctx.user.id}\u0000${ctx.group}\u0000${ctx.model}\u0000${id}`)
      .digest('base64url')
      .slice(0, 32);
  }

  async lookup(session: string): Promise<AffinityTarget | null> {
    const client = this.redis.client;
    if (client) {
      try {
        const v = await client.get(this.prefix + session);
        return v ? parseTarget(v) : null;
      } catch (err) {
        this.warn(err);
      }
    }
    const hit = this.memory.get(session);
    if (!hit) return null;
    if (hit.expires <= Date.now()) {
      this.memory.delete(session);
      return null;
    }
    return hit.target;
  }

  /** Remembers the channel that serves the session now (renewing its time to live). */
  remember(session: string, target: AffinityTarget): void {
    const ttl = this.options.num('channel_affinity.ttl_seconds');
    const client = this.redis.client;
    if (client) {
      client
        .set(this.prefix + session, `${target.channelId}:${target.keyIndex}`, 'EX', ttl)
        .catch((err: unknown) => {
          this.warn(err);
          this.rememberLocally(session, target, ttl);
        });
      return;
    }
    this.rememberLocally(session, target, ttl);
  }

  /** Counts a routing decision: the remembered channel served ('hit'), none was known ('new'), or the session moved. */
  count(result: 'hit' | 'new' | 'moved'): void {
    this.metrics.channelAffinity[result]++;
  }

  private rememberLocally(session: string, target: AffinityTarget, ttl: number): void {
    this.memory.delete(session);
    this.memory.set(session, { target, expires: Date.now() + ttl * 1000 });
    if (this.memory.size > MEMORY_MAX) {
      // The oldest entry goes first (a Map iterates in insertion order; each write re-inserts).
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
  }

  private sessionId(ctx: SessionContext): string | null {
    const { req } = ctx;
    const body = req.body ?? {};
    const headers = req.headers ?? {};
    for (const rule of this.options.json('channel_affinity.rules') as AffinityRule[]) {
      if (!rule || typeof rule !== 'object') continue;
      if (rule.format && rule.format !== req.format) continue;
      if (rule.mode && rule.mode !== req.mode) continue;
      if (rule.path && !(req.path ?? '').startsWith(rule.path)) continue;
      if (rule.model && !safeTest(rule.model, ctx.model)) continue;
      const value = rule.header
        ? headerValue(headers, rule.header.toLowerCase())
        : rule.json
          ? jsonPath(body, rule.json)
          : null;
      if (value) return `rule:${value}`;
    }
    if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key)
      return `pck:${body.prompt_cache_key}`;
    for (const name of headerNames(this.options.json('channel_affinity.headers'))) {
      const value = headerValue(headers, name);
      if (value) return `hdr:${value}`;
    }
    if (req.format === 'anthropic') {
      const user = jsonPath(body, 'metadata.user_id');
      if (user) return `meta:${user}`;
    }
    return null;
  }

  private warn(err: unknown): void {
    if (Date.now() - this.warnedAt < 60_000) return;
    this.warnedAt = Date.now();
    this.logger.warn(
      `channel affinity kept in memory: Redis failed (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

function parseTarget(v: string): AffinityTarget | null {
  const [c, k] = v.split(':').map(Number);
  return Number.isInteger(c) && c > 0
    ? { channelId: c, keyIndex: Number.isInteger(k) && k >= 0 ? k : 0 }
    : null;
}

function jsonPath(body: JsonObject, path: string): string | null {
  let cur: unknown = body;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === 'string') return cur.trim() || null;
  return typeof cur === 'number' ? String(cur) : null;
}

const patterns = new Map<string, RegExp | null>();
function safeTest(pattern: string, value: string): boolean {
  let re = patterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
    if (patterns.size < 1000) patterns.set(pattern, re);
  }
  return re !== null && re.test(value);
}
