import { Inject, Injectable, Logger } from '@nestjs/common';
import { RedisBusService } from '../../common/redis-bus.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';

/** Most entries kept in memory; beyond it the oldest go first (a flood of states cannot exhaust memory). */
const MEMORY_LIMIT = 100_000;

/**
 * Short-lived single-use values (sign-in states, used Telegram payloads). In Redis when
 * REDIS_CONN_STRING is set, so a state issued by one node is accepted, once, by any node; in memory
 * otherwise. Taking a value is atomic (GETDEL), so two concurrent uses cannot both get it.
 */
@Injectable()
export class OneTimeStore {
  private readonly logger = new Logger('OAuthStore');
  private readonly memory = new Map<string, { value: string; expiresAt: number }>();
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisBusService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.redisPrefix}:oauth:`;
  }

  async put(key: string, value: string, ttlSeconds: number): Promise<void> {
    const client = this.redis.client;
    if (client) {
      try {
        await client.set(this.prefix + key, value, 'EX', ttlSeconds);
        return;
      } catch (e) {
        this.logger.warn(`Redis unavailable, keeping the value on this node: ${(e as Error).message}`);
      }
    }
    this.sweep();
    this.memory.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  /** The value, removed so nobody gets it again; null when unknown, already taken or expired. */
  async take(key: string): Promise<string | null> {
    const client = this.redis.client;
    if (client) {
      try {
        const value = await client.getdel(this.prefix + key);
        if (value !== null) return value;
      } catch (e) {
        this.logger.warn(`Redis unavailable, looking on this node only: ${(e as Error).message}`);
      }
    }
    const hit = this.memory.get(key);
    if (!hit) return null;
    this.memory.delete(key);
    return hit.expiresAt > Date.now() ? hit.value : null;
  }

  /** True for the first caller that claims `key` within `ttlSeconds`, false for every later one. */
  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const client = this.redis.client;
    if (client) {
      try {
        return (await client.set(this.prefix + key, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
      } catch (e) {
        this.logger.warn(`Redis unavailable, claiming on this node only: ${(e as Error).message}`);
      }
    }
    const hit = this.memory.get(key);
    if (hit && hit.expiresAt > Date.now()) return false;
    this.sweep();
    this.memory.set(key, { value: '1', expiresAt: Date.now() + ttlSeconds * 1000 });
    return true;
  }

  private sweep(): void {
    if (this.memory.size < MEMORY_LIMIT) return;
    const now = Date.now();
    for (const [k, v] of this.memory) if (v.expiresAt <= now) this.memory.delete(k);
    // Still full: drop the oldest (a Map iterates in insertion order).
    for (const k of this.memory.keys()) {
      if (this.memory.size < MEMORY_LIMIT) break;
      this.memory.delete(k);
    }
  }
}
