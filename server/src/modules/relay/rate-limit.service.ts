import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { RedisBusService } from '../../common/redis-bus.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { OptionService } from '../option';
import { RelayError } from './errors';

/** Atomic sliding-window check: prune both windows, refuse when full, else count the request. */
const CHECK_SCRIPT = `
local now = tonumber(ARGV[1]); local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], 0, now - window)
if tonumber(ARGV[3]) > 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
if tonumber(ARGV[4]) > 0 and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
return 0`;

/**
 * ModelRequestRateLimit*: per user, at most Count requests (all) and SuccessCount successful requests
 * per DurationMinutes (≤ 0 = unlimited); ModelRequestRateLimitGroup {"group": [total, successful]} sets other
 * counts for the users of a group. Sliding windows: in Redis (shared by every node) when
 * REDIS_CONN_STRING is set, in memory otherwise.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger('RateLimit');
  private readonly total = new Map<string, number[]>();
  private readonly ok = new Map<string, number[]>();
  private readonly prefix: string;

  constructor(
    private readonly options: OptionService,
    private readonly redis: RedisBusService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.redisPrefix}:rl`;
  }

  /** The limits of `group`: ModelRequestRateLimitGroup overrides the global counts for its groups. */
  private limits(group = '') {
    const minutes = Math.max(1, this.options.num('ModelRequestRateLimitDurationMinutes'));
    const override = this.options.json('ModelRequestRateLimitGroup')[group];
    return {
      minutes,
      windowMs: minutes * 60_000,
      maxTotal: override ? override[0] : this.options.num('ModelRequestRateLimitCount'),
      maxOk: override ? override[1] : this.options.num('ModelRequestRateLimitSuccessCount'),
    };
  }

  private recent(map: Map<string, number[]>, key: string, now: number, windowMs: number): number[] {
    const list = map.get(key) ?? [];
    let i = 0;
    while (i < list.length && list[i] <= now - windowMs) i++;
    const kept = i ? list.slice(i) : list;
    map.set(key, kept);
    return kept;
  }

  /** ModelRequestRateLimitEnabled: the per-user request limits are on. */
  active(): boolean {
    return this.options.bool('ModelRequestRateLimitEnabled');
  }

  /** Refuses with 429 when a limit is reached; counts the request otherwise. */
  async check(userId: number, group: string): Promise<void> {
    if (!this.active()) return;
    const { minutes, windowMs, maxTotal, maxOk } = this.limits(group);
    const now = Date.now();
    const client = this.redis.client;
    let verdict = -1;
    if (client) {
      try {
        verdict = Number(
          await client.eval(
            CHECK_SCRIPT,
            2,
            `${this.prefix}:all:${userId}`,
            `${this.prefix}:ok:${userId}`,
            now,
            windowMs,
            maxTotal,
            maxOk,
            `${now}:${randomBytes(4).toString('hex')}`,
          ),
        );
      } catch (err) {
        // Redis unreachable: count on this node rather than refuse all traffic.
        this.logger.warn(`rate limit falls back to memory: ${(err as Error).message}`);
      }
    }
    if (verdict < 0) {
      const key = String(userId);
      const total = this.recent(this.total, key, now, windowMs);
      const ok = this.recent(this.ok, key, now, windowMs);
      verdict = maxTotal > 0 && total.length >= maxTotal ? 1 : maxOk > 0 && ok.length >= maxOk ? 2 : 0;
      if (!verdict) total.push(now);
    }
    if (verdict)
      throw RelayError.limited(
        'relay_rate_limited',
        { minutes, count: verdict === 1 ? maxTotal : maxOk },
        'rate_limit_exceeded',
        this.waitSeconds(verdict === 1 ? this.total : this.ok, String(userId), now, windowMs),
      );
  }

  /** Seconds until the oldest request of a full window leaves it (the whole window when counted in Redis). */
  private waitSeconds(map: Map<string, number[]>, key: string, now: number, windowMs: number): number {
    const oldest = this.redis.client ? undefined : map.get(key)?.[0];
    return (oldest === undefined ? windowMs : oldest + windowMs - now) / 1000;
  }

  async success(userId: number): Promise<void> {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return;
    const now = Date.now();
    const client = this.redis.client;
    if (client) {
      const key = `${this.prefix}:ok:${userId}`;
      await client
        .multi()
        .zadd(key, now, `${now}:${randomBytes(4).toString('hex')}`)
        .pexpire(key, this.limits().windowMs)
        .exec();
      return;
    }
    const list = this.ok.get(String(userId)) ?? [];
    list.push(now);
    this.ok.set(String(userId), list);
  }
}
