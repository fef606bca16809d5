import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RedisBusService } from '../../common/redis-bus.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import type { MessageKey } from '../../common/i18n/messages';
import { RelayError } from './errors';

/**
 * Per-channel and per-token limits: requests per minute, tokens per minute (prompt + completion as
 * billed) and requests in flight. 0 = unlimited; a subject with every limit at 0 never reaches this
 * service (callers test `hasScopedLimits` first, a few number reads).
 *
 * Minutes are sliding windows of sixty one-second buckets, so memory stays constant whatever the limit.
 * With REDIS_CONN_STRING the counters live in Redis and every node sees one count: buckets in a hash,
 * requests in flight as members of a sorted set scored by their expiry. A node renews the members it
 * holds every LEASE_RENEW_MS; the members of a node that died age out after LEASE_TTL_MS. Without Redis
 * (or while it is unreachable) the counters live in this process.
 *
 * A request's tokens are known only when it ends: the TPM check refuses once the last minute's
 * tokens reached the limit, so the request that crosses it is still served.
 */

export interface ScopedLimits {
  rpmLimit: number;
  tpmLimit: number;
  concurrencyLimit: number;
}

export type LimitScope = 'token' | 'channel';

/** Which limit refused an admission. */
export const Refusal = { Rpm: 1, Tpm: 2, Concurrency: 3 } as const;
export type Refusal = (typeof Refusal)[keyof typeof Refusal];

export const hasScopedLimits = (s: ScopedLimits): boolean =>
  s.rpmLimit > 0 || s.tpmLimit > 0 || s.concurrencyLimit > 0;

/** Does nothing: the release of a request that holds no slot. */
export const NO_RELEASE = (): void => undefined;

const WINDOW_SECONDS = 60;
export const LEASE_TTL_MS = 60_000;
const LEASE_RENEW_MS = 20_000;

/** Prunes and sums the last minute's buckets of both hashes, refuses when full, else takes a slot. */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local sec = tonumber(t[1]); local from = sec - ${WINDOW_SECONDS - 1}
local function recent(key)
  local h = redis.call('HGETALL', key); local s = 0
  for i = 1, #h, 2 do
    if tonumber(h[i]) < from then redis.call('HDEL', key, h[i]) else s = s + tonumber(h[i + 1]) end
  end
  return s
end
local rpm = tonumber(ARGV[1]); local tpm = tonumber(ARGV[2]); local conc = tonumber(ARGV[3]); local ttl = tonumber(ARGV[5])
if rpm > 0 and recent(KEYS[1]) >= rpm then return 1 end
if tpm > 0 and recent(KEYS[2]) >= tpm then return 2 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if conc > 0 and redis.call('ZCARD', KEYS[3]) >= conc then return 3 end
redis.call('ZADD', KEYS[3], now + ttl, ARGV[4])
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('HINCRBY', KEYS[1], sec, 1)
redis.call('EXPIRE', KEYS[1], ${WINDOW_SECONDS + 1})
return 0`;

const TOKENS_SCRIPT = `
local sec = tonumber(redis.call('TIME')[1])
redis.call('HINCRBY', KEYS[1], sec, ARGV[1])
redis.call('EXPIRE', KEYS[1], ${WINDOW_SECONDS + 1})
return 0`;

/** Pushes the expiry of slots still held (XX: a slot already aged out is not brought back). */
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[1]))
end
return 0`;

/** The counters of one subject in this process. */
class Meter {
  inflight = 0;
  private readonly stamp = new Float64Array(WINDOW_SECONDS).fill(-1);
  private readonly requests = new Float64Array(WINDOW_SECONDS);
  private readonly tokens = new Float64Array(WINDOW_SECONDS);

  private sum(values: Float64Array, sec: number): number {
    let s = 0;
    for (let i = 0; i < WINDOW_SECONDS; i++) if (this.stamp[i] > sec - WINDOW_SECONDS) s += values[i];
    return s;
  }

  private bucket(sec: number): number {
    const i = sec % WINDOW_SECONDS;
    if (this.stamp[i] !== sec) {
      this.stamp[i] = sec;
      this.requests[i] = 0;
      this.tokens[i] = 0;
    }
    return i;
  }

  admit(l: ScopedLimits, sec: number): Refusal | 0 {
    if (l.rpmLimit > 0 && this.sum(this.requests, sec) >= l.rpmLimit) return Refusal.Rpm;
    if (l.tpmLimit > 0 && this.sum(this.tokens, sec) >= l.tpmLimit) return Refusal.Tpm;
    if (l.concurrencyLimit > 0 && this.inflight >= l.concurrencyLimit) return Refusal.Concurrency;
    this.requests[this.bucket(sec)]++;
    this.inflight++;
    return 0;
  }

  addTokens(n: number, sec: number): void {
    this.tokens[this.bucket(sec)] += n;
  }

  /** Nothing in flight and nothing counted in the last minute: the meter can be dropped. */
  idle(sec: number): boolean {
    return this.inflight === 0 && this.stamp.every((s) => s <= sec - WINDOW_SECONDS);
  }
}

/** One admitted request's slot; `release` is idempotent and may be passed around unbound. */
export class LimitLease {
  private done = false;

  constructor(
    private readonly owner: ScopedLimitService,
    /** Set when the slot is counted in this process. */
    readonly meter: Meter | null,
    /** The Redis sorted set holding the slot (when meter is null). */
    readonly key: string,
    readonly member: string,
  ) {}

  readonly release = (): void => {
    if (this.done) return;
    this.done = true;
    this.owner.free(this);
  };
}

const TOKEN_MESSAGES: Record<Refusal, MessageKey> = {
  [Refusal.Rpm]: 'relay_token_rpm_limited',
  [Refusal.Tpm]: 'relay_token_tpm_limited',
  [Refusal.Concurrency]: 'relay_token_concurrency_limited',
};

@Injectable()
export class ScopedLimitService implements OnModuleDestroy {
  private readonly logger = new Logger('ScopedLimits');
  private readonly meters = new Map<string, Meter>();
  /** Slots this node holds in Redis, renewed until released. */
  private readonly held = new Set<LimitLease>();
  private readonly prefix: string;
  private renewTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private warnedAt = 0;

  constructor(
    private readonly redis: RedisBusService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.redisPrefix}:lim`;
  }

  onModuleDestroy(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.renewTimer = this.sweepTimer = null;
  }

  /**
   * Admits a token's request, or throws the 429 the caller sees (with the wait that helps). The caller
   * releases the slot when the request ends, whichever way it ends (answered, failed, client gone).
   */
  async admitToken(token: ScopedLimits & { id: number }): Promise<LimitLease> {
    const r = await this.acquire('token', token.id, token);
    if (typeof r !== 'number') return r;
    const limit =
      r === Refusal.Rpm ? token.rpmLimit : r === Refusal.Tpm ? token.tpmLimit : token.concurrencyLimit;
    // A minute's window frees a request or tokens within the minute; a slot in flight usually sooner.
    throw RelayError.limited(
      TOKEN_MESSAGES[r],
      { limit },
      'rate_limit_exceeded',
      r === Refusal.Concurrency ? 1 : WINDOW_SECONDS,
    );
  }

  /** A slot on a channel, or null when one of its limits is reached (selection then skips it). */
  async admitChannel(channel: ScopedLimits & { id: number }): Promise<LimitLease | null> {
    const r = await this.acquire('channel', channel.id, channel);
    return typeof r === 'number' ? null : r;
  }

  /** Counts billed tokens against the TPM limits of the token and the channel that served them. */
  addTokens(
    token: (ScopedLimits & { id: number }) | null,
    channel: ScopedLimits & { id: number },
    n: number,
  ): void {
    if (!(n > 0)) return;
    if (token && token.tpmLimit > 0) this.count('token', token.id, n);
    if (channel.tpmLimit > 0) this.count('channel', channel.id, n);
  }

  async acquire(scope: LimitScope, id: number, limits: ScopedLimits): Promise<LimitLease | Refusal> {
    const name = `${scope}:${id}`;
    const client = this.redis.client;
    if (client) {
      const tag = `${this.prefix}:{${name}}`;
      const member = `${Date.now()}:${randomBytes(6).toString('hex')}`;
      try {
        const verdict = Number(
          await client.eval(
            ACQUIRE_SCRIPT,
            3,
            `${tag}:r`,
            `${tag}:t`,
            `${tag}:c`,
            limits.rpmLimit,
            limits.tpmLimit,
            limits.concurrencyLimit,
            member,
            LEASE_TTL_MS,
          ),
        );
        if (verdict) return verdict as Refusal;
        const lease = new LimitLease(this, null, `${tag}:c`, member);
        this.held.add(lease);
        this.startRenewing();
        return lease;
      } catch (err) {
        this.warn(err as Error);
      }
    }
    const meter = this.meter(name);
    const verdict = meter.admit(limits, Math.floor(Date.now() / 1000));
    return verdict || new LimitLease(this, meter, '', '');
  }

  /** Called once per lease by LimitLease.release. */
  free(lease: LimitLease): void {
    if (lease.meter) {
      lease.meter.inflight--;
      return;
    }
    this.held.delete(lease);
    this.redis.client?.zrem(lease.key, lease.member).catch((err: Error) => this.warn(err));
  }

  private count(scope: LimitScope, id: number, n: number): void {
    const name = `${scope}:${id}`;
    const client = this.redis.client;
    if (client) {
      client.eval(TOKENS_SCRIPT, 1, `${this.prefix}:{${name}}:t`, Math.round(n)).catch((err: Error) => {
        this.warn(err);
        this.meter(name).addTokens(n, Math.floor(Date.now() / 1000));
      });
      return;
    }
    this.meter(name).addTokens(n, Math.floor(Date.now() / 1000));
  }

  private meter(name: string): Meter {
    let m = this.meters.get(name);
    if (!m) {
      this.meters.set(name, (m = new Meter()));
      this.startSweeping();
    }
    return m;
  }

  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      const sec = Math.floor(Date.now() / 1000);
      for (const [name, m] of this.meters) if (m.idle(sec)) this.meters.delete(name);
    }, WINDOW_SECONDS * 1000);
    this.sweepTimer.unref();
  }

  private startRenewing(): void {
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => this.renew(), LEASE_RENEW_MS);
    this.renewTimer.unref();
  }

  private renew(): void {
    const client = this.redis.client;
    if (!client || !this.held.size) return;
    const leases = [...this.held];
    for (let i = 0; i < leases.length; i += 500) {
      const batch = leases.slice(i, i + 500);
      client
        .eval(
          RENEW_SCRIPT,
          batch.length,
          ...batch.map((l) => l.key),
          LEASE_TTL_MS,
          ...batch.map((l) => l.member),
        )
        .catch((err: Error) => this.warn(err));
    }
  }

  private warn(err: Error): void {
    // Redis unreachable: count in this process rather than refuse all traffic; say so once a minute.
    if (Date.now() - this.warnedAt < 60_000) return;
    this.warnedAt = Date.now();
    this.logger.warn(`scoped limits fall back to memory: ${err.message}`);
  }
}
