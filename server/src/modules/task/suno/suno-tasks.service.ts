import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Not, Repository } from 'typeorm';
import { nowSeconds } from '../../../common/time';
import { Task } from '../../../database/entities';
import { TaskBillingService, TaskRef } from '../task-billing.service';
import { readMeta } from '../task-meta';
import { Json, SUNO_PLATFORM, sunoPatch, TASK_FINISHED } from './suno-wire';

/**
 * Suno task rows (`tasks`, platform suno): lookups scoped to their owner, and the conditional writes
 * that move a task forward; the write that finishes a task settles its charge exactly once.
 */
@Injectable()
export class SunoTaskStore {
  readonly repo: Repository<Task>;

  constructor(
    @InjectDataSource() ds: DataSource,
    private readonly billing: TaskBillingService,
  ) {
    this.repo = ds.getRepository(Task);
  }

  findOwn(userId: number, taskId: string): Promise<Task | null> {
    return this.repo.findOne({
      where: { user_id: userId, task_id: taskId, platform: SUNO_PLATFORM },
      order: { id: 'DESC' },
    });
  }

  async findOwnMany(userId: number, ids: string[]): Promise<Task[]> {
    if (!ids.length) return [];
    const rows = await this.repo.find({
      where: { user_id: userId, task_id: In(ids), platform: SUNO_PLATFORM },
      order: { id: 'ASC' },
    });
    const latest = new Map<string, Task>();
    for (const r of rows) latest.set(r.task_id, r);
    return ids.map((id) => latest.get(id)).filter((r): r is Task => !!r);
  }

  unfinished(limit: number): Promise<Task[]> {
    return this.repo.find({
      where: { platform: SUNO_PLATFORM, status: Not(In(TASK_FINISHED)) },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  ref(row: Task): TaskRef {
    return {
      userId: row.user_id,
      channelId: row.channel_id,
      platform: 'suno',
      action: row.action,
      taskId: row.task_id,
    };
  }

  /** Applies an upstream task object to an unfinished row; finishing settles the charge. */
  async apply(row: Task, item: Json, now = nowSeconds()): Promise<boolean> {
    if (TASK_FINISHED.includes(row.status)) return false;
    const { fields, outcome } = sunoPatch(row, item, now);
    if (outcome === 'failure') fields.quota = 0;
    if (!Object.keys(fields).length) return false;
    const res = await this.repo.update({ id: row.id, status: Not(In(TASK_FINISHED)) }, fields);
    if (!res.affected) return false;
    Object.assign(row, fields);
    const charge = readMeta(row.properties).charge;
    if (outcome && charge) {
      if (outcome === 'success') this.billing.succeed(this.ref(row), charge);
      else this.billing.refund(this.ref(row), charge, row.fail_reason ?? '');
    }
    return true;
  }

  fail(row: Task, reason: string, now = nowSeconds()): Promise<boolean> {
    return this.apply(row, { status: 'FAILURE', fail_reason: reason }, now);
  }
}
