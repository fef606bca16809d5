import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Not, Repository } from 'typeorm';
import { SafeHttpClient } from '../../../common/safe-http';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { Midjourney } from '../../../database/entities';
import { OptionService } from '../../option';
import { TaskBillingService, TaskRef } from '../task-billing.service';
import { readMeta, writeMeta } from '../task-meta';
import { Json, MJ_FINISHED, mjPatch, mjTaskDto } from './mj-wire';

/**
 * Drawing task rows: lookups scoped to their owner, and the one place their state moves forward.
 * A change reported by the upstream (poll or callback) is written only while the task is unfinished;
 * the write that finishes it is conditional, so exactly one writer settles its charge (charge on
 * success, full refund on failure) even when a callback and the poller race, on any node.
 */
@Injectable()
export class MjTaskStore implements OnModuleDestroy {
  private readonly logger = new Logger('MjTasks');
  private readonly http: SafeHttpClient;
  readonly repo: Repository<Midjourney>;

  constructor(
    @InjectDataSource() ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly options: OptionService,
    private readonly billing: TaskBillingService,
  ) {
    this.repo = ds.getRepository(Midjourney);
    this.http = SafeHttpClient.forConfig(config, options);
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }

  /** The caller's own task with this proxy id (the latest, when the proxy answered one id twice). */
  findOwn(userId: number, mjId: string): Promise<Midjourney | null> {
    return this.repo.findOne({ where: { user_id: userId, mj_id: mjId }, order: { id: 'DESC' } });
  }

  /** The caller's own tasks among `ids`, in the order asked, each id once. */
  async findOwnMany(userId: number, ids: string[]): Promise<Midjourney[]> {
    if (!ids.length) return [];
    const rows = await this.repo.find({ where: { user_id: userId, mj_id: In(ids) }, order: { id: 'ASC' } });
    const latest = new Map<string, Midjourney>();
    for (const r of rows) latest.set(r.mj_id, r);
    return ids.map((id) => latest.get(id)).filter((r): r is Midjourney => !!r);
  }

  /** Unfinished tasks, oldest first. */
  unfinished(limit: number): Promise<Midjourney[]> {
    return this.repo.find({ where: { status: Not(In(MJ_FINISHED)) }, order: { id: 'ASC' }, take: limit });
  }

  ref(row: Midjourney): TaskRef {
    return {
      userId: row.user_id,
      channelId: row.channel_id,
      platform: 'midjourney',
      action: row.action,
      taskId: row.mj_id,
    };
  }

  /**
   * Applies a task object of the proxy to an unfinished row. Returns true when the row changed.
   * Finishing settles the charge; a caller callback (MjNotifyEnabled) is sent after every change.
   */
  async apply(row: Midjourney, item: Json, now = Date.now()): Promise<boolean> {
    if (MJ_FINISHED.includes(row.status)) return false;
    const patch = mjPatch(row, item, now);
    const fields = { ...patch.fields };
    const meta = readMeta(row.properties);
    if (patch.upstream) fields.properties = writeMeta({ ...meta, upstream: patch.upstream });
    if (patch.outcome === 'failure') fields.quota = 0;
    if (!Object.keys(fields).length) return false;
    const res = await this.repo.update({ id: row.id, status: Not(In(MJ_FINISHED)) }, fields);
    if (!res.affected) return false;
    Object.assign(row, fields);
    if (patch.outcome && meta.charge) {
      if (patch.outcome === 'success') this.billing.succeed(this.ref(row), meta.charge);
      else this.billing.refund(this.ref(row), meta.charge, row.fail_reason ?? '');
    }
    this.notifyCaller(row, meta.notify_hook);
    return true;
  }

  /** Ends an unfinished task as failed (timeout, channel gone), refunding it. */
  fail(row: Midjourney, reason: string, now = Date.now()): Promise<boolean> {
    return this.apply(row, { status: 'FAILURE', failReason: reason }, now);
  }

  /** POSTs the task object to the caller's notifyHook, fire and forget, through the SSRF-safe client. */
  private notifyCaller(row: Midjourney, hook: string): void {
    if (!hook || !this.options.bool('MjNotifyEnabled')) return;
    const dto = mjTaskDto(row, this.options.bool('MjForwardUrlEnabled'), this.options.get('ServerAddress'));
    void this.http
      .fetch(hook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(dto),
        timeoutMs: 5000,
        maxRedirects: 0,
        maxBytes: 64 * 1024,
      })
      .catch((err: Error) => this.logger.warn(`callback of task ${row.mj_id} not delivered: ${err.message}`));
  }
}
