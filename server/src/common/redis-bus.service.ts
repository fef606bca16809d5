import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { CacheBus, CacheEvent, CacheTopic } from './cache-bus';

interface WireEvent {
  node: string;
  topic: CacheTopic;
  keys: Array<string | number>;
}

/**
 * Carries cache-bus events between nodes over Redis pub/sub when REDIS_CONN_STRING is set. Each process
 * tags its messages with a random id and ignores its own. Without Redis this does nothing.
 */
@Injectable()
export class RedisBusService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RedisBus');
  private readonly nodeId = randomBytes(8).toString('hex');
  private pub?: Redis;
  private sub?: Redis;
  readonly channel: string;

  constructor(
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.channel = `${config.redisPrefix}:cache`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    const options = { maxRetriesPerRequest: 3, lazyConnect: true };
    // The client is loaded only when Redis is configured (~7 MB of resident memory otherwise unused).
    const { default: Redis } = await import('ioredis');
    this.pub = new Redis(this.config.redisUrl, options);
    this.sub = new Redis(this.config.redisUrl, options);
    for (const client of [this.pub, this.sub]) client.on('error', (e: Error) => this.logger.warn(e.message));
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    await this.sub.subscribe(this.channel);
    this.bus.addRemote((e: CacheEvent) => {
      const wire: WireEvent = { node: this.nodeId, topic: e.topic, keys: e.keys };
      this.pub
        ?.publish(this.channel, JSON.stringify(wire))
        .catch((err: Error) => this.logger.warn(err.message));
    });
  }

  /** The command connection, for other Redis users (rate limits); null without Redis. */
  get client(): Redis | null {
    return this.pub ?? null;
  }

  private receive(message: string): void {
    try {
      const wire = JSON.parse(message) as WireEvent;
      if (wire.node === this.nodeId) return;
      this.bus.deliver({ topic: wire.topic, keys: Array.isArray(wire.keys) ? wire.keys : [], remote: true });
    } catch {
      this.logger.warn('ignored a malformed cache event');
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.sub?.quit().catch(() => undefined), this.pub?.quit().catch(() => undefined)]);
  }
}
