import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { CacheBus, CacheTopic } from './cache-bus';

/**
 * The safety net under cross-node invalidation: a node that missed a Redis message (a reconnect, a
 * restart of Redis) is at most SYNC_FREQUENCY seconds stale. Every period this node tells its own
 * caches that everything of these topics may have changed, as if another node had said so: users and
 * tokens are dropped and re-read on next use, the session revocation list is reloaded from Redis.
 * Options and channels (loaded whole at boot) run their own reload on the same period.
 */
export const RESYNC_TOPICS: readonly CacheTopic[] = ['users', 'tokens', 'sessions', 'prices'];

@Injectable()
export class CacheResyncService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.resync(), Math.max(1, this.config.syncFrequencySeconds) * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Marks every resynced topic stale on this node only. */
  resync(): void {
    for (const topic of RESYNC_TOPICS) this.bus.deliver({ topic, keys: [], remote: true });
  }
}
