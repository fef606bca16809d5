import dayjs, { type Dayjs } from 'dayjs';
import type { Page, Schemas } from '../../api/wire';

export { channelColor, durationColor, progressPercent } from '../../lib/task-display';

/** A drawing task as `GET /api/mj/` (admin, with user and channel) or `/api/mj/self/` returns it; times in milliseconds. */
export type DrawingTask = Schemas['DrawingLogView'] &
  Partial<Pick<Schemas['AdminDrawingLogView'], 'user_id' | 'channel_id'>>;

export type DrawingPage = Page<DrawingTask>;

export interface DrawingFilters {
  channelId: string;
  mjId: string;
  /** Milliseconds; 0 = open. */
  startMs: number;
  endMs: number;
}

/** docs/decisions.md#task-logs: the drawing log starts 30 days ago and ends one hour ahead. */
export function defaultDrawingRange(now: Dayjs = dayjs()): { start: Dayjs; end: Dayjs } {
  return { start: now.subtract(30, 'day'), end: now.add(1, 'hour') };
}

export function emptyDrawingFilters(now: Dayjs = dayjs()): DrawingFilters {
  const range = defaultDrawingRange(now);
  return { channelId: '', mjId: '', startMs: range.start.valueOf(), endMs: range.end.valueOf() };
}

/** `/api/mj/?…` for admins (channel filter allowed), `/api/mj/self/?…` for everyone else. */
export function drawingListUrl(
  filters: DrawingFilters,
  admin: boolean,
  page: number,
  pageSize: number,
): string {
  const params = new URLSearchParams({ p: String(page), page_size: String(pageSize) });
  if (admin && filters.channelId.trim() !== '') {
    params.set('channel_id', filters.channelId.trim());
  }
  if (filters.mjId.trim() !== '') {
    params.set('mj_id', filters.mjId.trim());
  }
  if (filters.startMs > 0) {
    params.set('start_timestamp', String(Math.floor(filters.startMs)));
  }
  if (filters.endMs > 0) {
    params.set('end_timestamp', String(Math.floor(filters.endMs)));
  }
  return `${admin ? '/api/mj/' : '/api/mj/self/'}?${params.toString()}`;
}

export const DRAWING_ACTIONS = [
  'IMAGINE',
  'UPSCALE',
  'VARIATION',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'PAN',
  'DESCRIBE',
  'BLEND',
  'UPLOAD',
  'SHORTEN',
  'REROLL',
  'INPAINT',
  'ZOOM',
  'CUSTOM_ZOOM',
  'MODAL',
  'SWAP_FACE',
] as const;

export const DRAWING_STATUSES = [
  'NOT_START',
  'SUBMITTED',
  'IN_PROGRESS',
  'SUCCESS',
  'FAILURE',
  'MODAL',
] as const;

export function drawingActionKey(action: string): string {
  return (DRAWING_ACTIONS as readonly string[]).includes(action) ? action : 'unknown';
}

export function drawingStatusKey(status: string): string {
  return (DRAWING_STATUSES as readonly string[]).includes(status) ? status : 'unknown';
}

export const DRAWING_STATUS_COLORS: Record<
  string,
  'default' | 'info' | 'primary' | 'success' | 'error' | 'warning'
> = {
  NOT_START: 'default',
  SUBMITTED: 'info',
  IN_PROGRESS: 'primary',
  SUCCESS: 'success',
  FAILURE: 'error',
  MODAL: 'warning',
  unknown: 'default',
};

/** Submit result codes of the Midjourney proxy: 1 submitted, 21 waiting, 22 queued (duplicate), 0 not. */
export function submitResultKey(code: number): string {
  switch (code) {
    case 1:
      return 'submitted';
    case 21:
      return 'waiting';
    case 22:
      return 'duplicate';
    case 0:
      return 'notSubmitted';
    default:
      return 'unknown';
  }
}

/** Seconds between submit and finish (both ms), one decimal; null while unfinished. */
export function durationSeconds(submitMs: number, finishMs: number): number | null {
  if (!submitMs || !finishMs || finishMs < submitMs) {
    return null;
  }
  return Math.round((finishMs - submitMs) / 100) / 10;
}

export function formatMs(ms: number): string {
  return ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '';
}
