import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { Page, pageOf, parsePage } from '../../common/pagination';
import { queryReader } from '../../common/query-params';
import { Midjourney, Task } from '../../database/entities';
import { OptionService } from '../option';
import { imageUrlOf } from './midjourney/mj-wire';
import { parseJson } from './task-meta';

import type { UnknownObject as Raw } from '../../common/json';
import type { AdminDrawingLogView, AdminTaskLogView, DrawingLogView, TaskLogView } from './task-log.view';

/** The largest timestamps accepted: 9999-12-31T23:59:59Z in seconds and in milliseconds. */
const MAX_SECONDS = 253_402_300_799;
const MAX_MS = MAX_SECONDS * 1000 + 999;
const MAX_INT = 2_147_483_647;

const { text, integer } = queryReader('task_param_invalid');

/** A drawing task as the drawing log lists it (admins also see the user and the channel). */
export type MjLogItem = DrawingLogView & Partial<Pick<AdminDrawingLogView, 'user_id' | 'channel_id'>>;

/** A generic task as the task log lists it (admins also see the user and the channel). */
export type TaskLogItem = TaskLogView & Partial<Pick<AdminTaskLogView, 'user_id' | 'channel_id'>>;

/**
 * The drawing log (`/api/mj`, timestamps in milliseconds) and the task log (`/api/task`, seconds):
 * every task for admins (with a channel filter), the caller's own otherwise — users never see
 * another's task nor any channel. Newest first; every filter is a bound parameter.
 */
@Injectable()
export class TaskLogService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
  ) {}

  private async page<T extends object, V>(
    qb: SelectQueryBuilder<T>,
    query: Raw,
    view: (row: T) => V,
  ): Promise<Page<V>> {
    const q = parsePage(query);
    const [rows, total] = await qb.skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(view), total, q);
  }

  private range<T extends object>(qb: SelectQueryBuilder<T>, query: Raw, column: string, max: number): void {
    const start = integer(query, 'start_timestamp', max);
    const end = integer(query, 'end_timestamp', max);
    if (start) qb.andWhere(`${column} >= :start`, { start });
    if (end) qb.andWhere(`${column} <= :end`, { end });
  }

  /** GET /api/mj (`ownerId` null: everyone's, channel and user filters) and /api/mj/self (the owner's). */
  listDrawings(query: Raw, ownerId: number | null): Promise<Page<MjLogItem>> {
    const admin = ownerId === null;
    const qb = this.ds.getRepository(Midjourney).createQueryBuilder('m').orderBy('m.id', 'DESC');
    if (ownerId !== null) qb.andWhere('m.user_id = :uid', { uid: ownerId });
    if (admin) {
      const channel = integer(query, 'channel_id', MAX_INT);
      if (channel) qb.andWhere('m.channel_id = :channel', { channel });
      const user = integer(query, 'user_id', MAX_INT);
      if (user) qb.andWhere('m.user_id = :user', { user });
    }
    const mjId = text(query, 'mj_id', 191);
    if (mjId) qb.andWhere('m.mj_id = :mjId', { mjId });
    const action = text(query, 'action', 40).toUpperCase();
    if (action) qb.andWhere('m.action = :action', { action });
    const status = text(query, 'status', 20).toUpperCase();
    if (status) qb.andWhere('m.status = :status', { status });
    this.range(qb, query, 'm.submit_time', MAX_MS);
    const forward = this.options.bool('MjForwardUrlEnabled');
    const server = this.options.get('ServerAddress');
    return this.page(qb, query, (r) => this.drawing(r, admin, forward, server));
  }

  private drawing(r: Midjourney, admin: boolean, forward: boolean, server: string): MjLogItem {
    return {
      id: r.id,
      ...(admin ? { user_id: r.user_id, channel_id: r.channel_id } : {}),
      created_at: Number(r.created_at),
      submit_time: Number(r.submit_time),
      start_time: Number(r.start_time),
      finish_time: Number(r.finish_time),
      action: r.action,
      mj_id: r.mj_id,
      code: r.code,
      status: r.status,
      progress: r.progress,
      image_url: imageUrlOf(r, forward, server),
      prompt: r.prompt ?? '',
      prompt_en: r.prompt_en ?? '',
      description: r.description ?? '',
      fail_reason: r.fail_reason ?? '',
      quota: Number(r.quota),
    };
  }

  /** GET /api/task (`ownerId` null: everyone's, channel and user filters) and /api/task/self (the owner's). */
  listTasks(query: Raw, ownerId: number | null): Promise<Page<TaskLogItem>> {
    const admin = ownerId === null;
    const qb = this.ds.getRepository(Task).createQueryBuilder('t').orderBy('t.id', 'DESC');
    if (ownerId !== null) qb.andWhere('t.user_id = :uid', { uid: ownerId });
    if (admin) {
      const channel = integer(query, 'channel_id', MAX_INT);
      if (channel) qb.andWhere('t.channel_id = :channel', { channel });
      const user = integer(query, 'user_id', MAX_INT);
      if (user) qb.andWhere('t.user_id = :user', { user });
    }
    const taskId = text(query, 'task_id', 191);
    if (taskId) qb.andWhere('t.task_id = :taskId', { taskId });
    const platform = text(query, 'platform', 30).toLowerCase();
    if (platform) qb.andWhere('t.platform = :platform', { platform });
    const action = text(query, 'action', 40).toUpperCase();
    if (action) qb.andWhere('t.action = :action', { action });
    const status = text(query, 'status', 20).toUpperCase();
    if (status) qb.andWhere('t.status = :status', { status });
    this.range(qb, query, 't.submit_time', MAX_SECONDS);
    return this.page(qb, query, (r) => this.task(r, admin));
  }

  private task(r: Task, admin: boolean): TaskLogItem {
    return {
      id: r.id,
      ...(admin ? { user_id: r.user_id, channel_id: r.channel_id } : {}),
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
      submit_time: Number(r.submit_time),
      start_time: Number(r.start_time),
      finish_time: Number(r.finish_time),
      platform: r.platform,
      action: r.action,
      task_id: r.task_id,
      status: r.status,
      progress: r.progress,
      fail_reason: r.fail_reason ?? '',
      quota: Number(r.quota),
      data: parseJson(r.data, null),
    };
  }
}
