import dayjs, { type Dayjs } from 'dayjs';
import type { Page, Schemas } from '../../api/wire';

/** A generic (Suno) task as `GET /api/task/` (admin, with user and channel) or `/api/task/self` returns it; times in seconds. */
export type GenericTask = Schemas['TaskLogView'] &
  Partial<Pick<Schemas['AdminTaskLogView'], 'user_id' | 'channel_id'>>;

export type TaskPage = Page<GenericTask>;

export interface TaskFilters {
  channelId: string;
  taskId: string;
  /** Seconds; 0 = open. */
  start: number;
  end: number;
}

/** docs/decisions.md#task-logs: the task log starts at today 00:00 with no end. */
export function emptyTaskFilters(now: Dayjs = dayjs()): TaskFilters {
  return { channelId: '', taskId: '', start: now.startOf('day').unix(), end: 0 };
}

export function taskListUrl(filters: TaskFilters, admin: boolean, page: number, pageSize: number): string {
  const params = new URLSearchParams({ p: String(page), page_size: String(pageSize) });
  if (admin && filters.channelId.trim() !== '') {
    params.set('channel_id', filters.channelId.trim());
  }
  if (filters.taskId.trim() !== '') {
    params.set('task_id', filters.taskId.trim());
  }
  if (filters.start > 0) {
    params.set('start_timestamp', String(Math.floor(filters.start)));
  }
  if (filters.end > 0) {
    params.set('end_timestamp', String(Math.floor(filters.end)));
  }
  return `${admin ? '/api/task/' : '/api/task/self'}?${params.toString()}`;
}

/** docs/decisions.md#task-logs: SUCCESS, NOT_START, SUBMITTED, IN_PROGRESS, FAILURE, QUEUED, UNKNOWN, '' (submitting). */
export function taskStatusKey(status: string): string {
  switch (status) {
    case 'SUCCESS':
    case 'NOT_START':
    case 'SUBMITTED':
    case 'IN_PROGRESS':
    case 'FAILURE':
    case 'QUEUED':
    case 'UNKNOWN':
      return status;
    case '':
      return 'SUBMITTING';
    default:
      return 'other';
  }
}

export const TASK_STATUS_COLORS: Record<
  string,
  'default' | 'info' | 'primary' | 'success' | 'error' | 'warning'
> = {
  SUCCESS: 'success',
  NOT_START: 'default',
  SUBMITTED: 'info',
  IN_PROGRESS: 'primary',
  FAILURE: 'error',
  QUEUED: 'warning',
  UNKNOWN: 'default',
  SUBMITTING: 'info',
  other: 'default',
};

export function taskActionKey(action: string): string {
  return action === 'MUSIC' || action === 'LYRICS' ? action : 'other';
}

export function taskPlatformKey(platform: string): string {
  return platform === 'suno' ? 'suno' : 'other';
}

/** Seconds between submit and finish; null while unfinished. */
export function taskDurationSeconds(submit: number, finish: number): number | null {
  if (!submit || !finish || finish < submit) {
    return null;
  }
  return finish - submit;
}

export function formatSeconds(seconds: number): string {
  return seconds ? dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss') : '';
}
