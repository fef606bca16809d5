import { Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { AppConfig } from '../config/app-config';

/**
 * Sign-in and API throttling counters in Redis, so a limit counts the attempts made on every node
 * (an attacker spreading guesses over the nodes behind a load balancer gets no more tries). The
 * counting itself is @nest-lab/throttler-storage-redis (one Lua script per hit). If Redis cannot be
 * reached the attempt is counted on this node instead of failing the request.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Throttler');
  private readonly redis: ThrottlerStorageRedisService;
  private readonly memory = new ThrottlerStorageService();

  private constructor(redis: ThrottlerStorageRedisService) {
    this.redis = redis;
    this.redis.redis.on('error', (e: Error) => this.logger.warn(e.message));
  }

  /** The storage on `url`; the Redis client is loaded here, so a node without Redis never loads it. */
  static async create(url: string, prefix: string): Promise<RedisThrottlerStorage> {
    const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
    return new RedisThrottlerStorage(
      new ThrottlerStorageRedisService(url, {
        keyPrefix: `${prefix}:throttle:`,
        // With Redis down a hit waits for one reconnect attempt at most, then falls back.
        maxRetriesPerRequest: 1,
      }),
    );
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      return await this.redis.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (err) {
      this.logger.warn(`throttling counts on this node only: ${(err as Error).message}`);
      return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onModuleDestroy(): void {
    this.redis.onModuleDestroy();
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
  }
}

/** The throttler's storage: Redis when REDIS_CONN_STRING is set, the built-in memory store otherwise. */
export async function throttlerStorage(config: AppConfig): Promise<ThrottlerStorage | undefined> {
  return config.redisUrl ? RedisThrottlerStorage.create(config.redisUrl, config.redisPrefix) : undefined;
}
