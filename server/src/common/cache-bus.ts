import { EventEmitter } from 'node:events';
import { Injectable } from '@nestjs/common';

export type CacheTopic = 'options' | 'users' | 'tokens' | 'channels' | 'prices' | 'sessions';

export interface CacheEvent {
  topic: CacheTopic;
  /** Ids or keys that changed; empty means "reload everything of this topic". */
  keys: Array<string | number>;
  /** True when the change was made on another node (this node's memory is stale). */
  remote: boolean;
}

/**
 * Tells in-memory caches that something changed. In one process this is an event emitter; with Redis
 * configured the same events also cross nodes (the Redis transport subscribes and re-emits here).
 */
@Injectable()
export class CacheBus {
  private readonly emitter = new EventEmitter().setMaxListeners(100);
  private readonly remotes: Array<(e: CacheEvent) => void> = [];

  publish(topic: CacheTopic, keys: Array<string | number> = []): void {
    const event: CacheEvent = { topic, keys, remote: false };
    this.deliver(event);
    for (const r of this.remotes) r(event);
  }

  /** Called by a transport for events that arrived from another node. */
  deliver(event: CacheEvent): void {
    this.emitter.emit(event.topic, event);
  }

  on(topic: CacheTopic, handler: (e: CacheEvent) => void): void {
    this.emitter.on(topic, handler);
  }

  addRemote(send: (e: CacheEvent) => void): void {
    this.remotes.push(send);
  }
}
