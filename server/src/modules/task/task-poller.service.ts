import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RelayCacheService } from '../relay';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import type { Midjourney, Task } from '../../database/entities';
import { MjTaskStore } from './midjourney/mj-tasks.service';
import { Json } from './midjourney/mj-wire';
import { sunoAuth } from './suno/suno-relay.service';
import { SunoTaskStore } from './suno/suno-tasks.service';
import { parseSunoAnswer } from './suno/suno-wire';
import { POLL_BATCH, POLL_LIMIT } from './task-config';
import { parseJson } from './task-meta';
import { TaskUpstream } from './task-upstream';

const FETCH_TIMEOUT_MS = 15_000;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Keeps unfinished tasks current (master node only): every TASK_POLL_INTERVAL seconds it asks each
 * channel's upstream for its unfinished tasks in batches (Midjourney `list-by-condition`, Suno
 * `fetch`), applies the answers (finishing a task settles its charge), and fails and refunds tasks
 * older than TASK_TIMEOUT, tasks without an upstream id and tasks whose channel was deleted.
 */
@Injectable()
export class TaskPoller implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TaskPoller');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private stopping = false;
  private polling = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: RelayCacheService,
    private readonly upstream: TaskUpstream,
    private readonly mj: MjTaskStore,
    private readonly suno: SunoTaskStore,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.nodeType !== 'master' || this.config.taskPollIntervalMs <= 0) return;
    this.polling = true;
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Does this node poll in the background (master node, interval > 0, not shutting down)? */
  get active(): boolean {
    return this.polling && !this.stopping;
  }

  private schedule(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pollOnce().finally(() => this.schedule());
    }, this.config.taskPollIntervalMs);
    this.timer.unref();
  }

  /**
   * A poll of every platform that starts after this call; one runs at a time (a call during a poll
   * gets the next one, shared with every other call made meanwhile).
   */
  pollOnce(): Promise<void> {
    if (this.running) {
      this.next ??= this.running.then(() => {
        this.next = null;
        return this.pollOnce();
      });
      return this.next;
    }
    this.running = (async () => {
      try {
        await this.pollMidjourney();
        await this.pollSuno();
      } catch (err) {
        this.logger.error(`task poll failed: ${(err as Error).message}`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private timeoutReason(): string {
    return `the task timed out (no result within ${Math.round(this.config.taskTimeoutMs / 1000)} s)`;
  }

  private async pollMidjourney(): Promise<void> {
    const now = Date.now();
    const rows = await this.mj.unfinished(POLL_LIMIT);
    const byChannel = new Map<number, Map<string, Midjourney[]>>();
    for (const row of rows) {
      if (now - Number(row.submit_time) > this.config.taskTimeoutMs)
        await this.mj.fail(row, this.timeoutReason(), now);
      else if (!row.mj_id) await this.mj.fail(row, 'the upstream gave no task id', now);
      else {
        let ids = byChannel.get(row.channel_id);
        if (!ids) byChannel.set(row.channel_id, (ids = new Map<string, Midjourney[]>()));
        ids.set(row.mj_id, [...(ids.get(row.mj_id) ?? []), row]);
      }
    }
    for (const [channelId, ids] of byChannel) {
      if (this.stopping) return;
      const ch = this.cache.channels.byId.get(channelId);
      if (!ch) {
        for (const list of ids.values())
          for (const row of list) await this.mj.fail(row, `channel #${channelId} no longer exists`);
        continue;
      }
      for (const batch of chunks([...ids.keys()], POLL_BATCH)) {
        let items: unknown;
        try {
          const a = await this.upstream.call(
            ch,
            'POST',
            '/mj/task/list-by-condition',
            { ids: batch },
            (key) => ({ 'mj-api-secret': key }),
            FETCH_TIMEOUT_MS,
          );
          if (a.status !== 200) throw new Error(`status ${a.status}`);
          items = parseJson(a.text);
          if (!Array.isArray(items)) throw new Error('the answer is not a task list');
        } catch (err) {
          this.logger.warn(`channel #${channelId}: drawing tasks not fetched: ${(err as Error).message}`);
          continue;
        }
        for (const item of items) {
          if (!isObject(item) || (typeof item.id !== 'string' && typeof item.id !== 'number')) continue;
          for (const row of ids.get(String(item.id)) ?? []) await this.mj.apply(row, item);
        }
      }
    }
  }

  private async pollSuno(): Promise<void> {
    const now = nowSeconds();
    const rows = await this.suno.unfinished(POLL_LIMIT);
    const byChannel = new Map<number, Map<string, Task[]>>();
    for (const row of rows) {
      if ((now - Number(row.submit_time)) * 1000 > this.config.taskTimeoutMs)
        await this.suno.fail(row, this.timeoutReason(), now);
      else if (!row.task_id) await this.suno.fail(row, 'the upstream gave no task id', now);
      else {
        let ids = byChannel.get(row.channel_id);
        if (!ids) byChannel.set(row.channel_id, (ids = new Map<string, Task[]>()));
        ids.set(row.task_id, [...(ids.get(row.task_id) ?? []), row]);
      }
    }
    for (const [channelId, ids] of byChannel) {
      if (this.stopping) return;
      const ch = this.cache.channels.byId.get(channelId);
      if (!ch) {
        for (const list of ids.values())
          for (const row of list) await this.suno.fail(row, `channel #${channelId} no longer exists`);
        continue;
      }
      for (const batch of chunks([...ids.keys()], POLL_BATCH)) {
        let items: unknown[];
        try {
          const a = await this.upstream.call(
            ch,
            'POST',
            '/suno/fetch',
            { ids: batch },
            sunoAuth,
            FETCH_TIMEOUT_MS,
          );
          if (a.status !== 200) throw new Error(`status ${a.status}`);
          const parsed = parseSunoAnswer(a.text);
          if (!parsed || parsed.code !== 'success' || !Array.isArray(parsed.data))
            throw new Error('the answer is not a task list');
          items = parsed.data;
        } catch (err) {
          this.logger.warn(`channel #${channelId}: suno tasks not fetched: ${(err as Error).message}`);
          continue;
        }
        for (const item of items) {
          if (!isObject(item) || typeof item.task_id !== 'string') continue;
          for (const row of ids.get(item.task_id) ?? []) await this.suno.apply(row, item);
        }
      }
    }
  }
}
