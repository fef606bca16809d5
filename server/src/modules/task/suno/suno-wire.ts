/**
 * The Suno API wire format (the task API of the Suno-API servers gateways of this family relay):
 * `POST /suno/submit/{music,lyrics}` → `{code: "success", message, data: "<task id>"}`,
 * `POST /suno/fetch {ids}` → `{code, message, data: [task]}`, a task being
 * `{task_id, action, status, fail_reason, submit_time, start_time, finish_time, data}` (seconds).
 * Pure functions; the service does the I/O.
 */
import type { Task } from '../../../database/entities';
import { RelayError } from '../../relay';
import { cleanText, parseJson } from '../task-meta';

export const SUNO_ROUTES = { music: 'MUSIC', lyrics: 'LYRICS' } as const;
export type SunoRoute = keyof typeof SUNO_ROUTES;
export type SunoAction = (typeof SUNO_ROUTES)[SunoRoute];

export const SUNO_PLATFORM = 'suno';
/** Suno API channels. */
export const SUNO_CHANNEL_TYPES = [36];
/** Generic task statuses. */
export const TASK_STATUSES = new Set([
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'UNKNOWN',
]);
export const TASK_FINISHED = ['SUCCESS', 'FAILURE'];
export const DEFAULT_MV = 'chirp-v3-0';

export type Json = Record<string, unknown>;

export const sunoModel = (action: SunoAction): string => (action === 'MUSIC' ? 'suno_music' : 'suno_lyrics');

export interface SunoPlan {
  action: SunoAction;
  /** The body sent upstream: the known fields only. */
  body: Json;
  /** The text of the request (prompt, description, title, tags), screened and kept with the task. */
  input: string;
  /** The task a continuation extends (task_id with continue_clip_id). */
  originId: string | null;
}

const bad = (reason: string) => new RelayError(400, 'task_bad_body', { reason }, '', 'invalid_request');

const STRING_FIELDS: Record<string, number> = {
  prompt: 10_000,
  gpt_description_prompt: 10_000,
  mv: 64,
  title: 200,
  tags: 1000,
  task_id: 64,
  continue_clip_id: 64,
};

/** Validates a submission. Wrong types, missing text and NUL characters → 400. */
export function planSuno(route: SunoRoute, body: Json): SunoPlan {
  const action = SUNO_ROUTES[route];
  const out: Json = {};
  for (const [field, max] of Object.entries(STRING_FIELDS)) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw bad(`${field} must be a string`);
    if (v.length > max) throw bad(`${field} is longer than ${max} characters`);
    if (v.includes('\u0000')) throw bad(`${field} must not contain NUL characters`);
    if (v !== '') out[field] = v;
  }
  if (body.continue_at !== undefined && body.continue_at !== null) {
    const v = body.continue_at;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 86_400)
      throw bad('continue_at must be a number of seconds');
    out.continue_at = v;
  }
  if (body.make_instrumental !== undefined && body.make_instrumental !== null) {
    if (typeof body.make_instrumental !== 'boolean') throw bad('make_instrumental must be a boolean');
    out.make_instrumental = body.make_instrumental;
  }
  const text = (f: string) => {
    const v = out[f];
    return typeof v === 'string' ? v.trim() : '';
  };
  if (action === 'LYRICS' && !text('prompt')) throw bad('prompt is required');
  if (action === 'MUSIC' && !text('prompt') && !text('gpt_description_prompt'))
    throw bad('prompt or gpt_description_prompt is required');
  if (action === 'MUSIC' && !out.mv) out.mv = DEFAULT_MV;
  let originId: string | null = null;
  if (out.continue_clip_id) {
    originId = text('task_id');
    if (!originId) throw bad('task_id is required with continue_clip_id');
  }
  const input = [text('prompt'), text('gpt_description_prompt'), text('title'), text('tags')]
    .filter(Boolean)
    .join('\n');
  return { action, body: out, input, originId };
}

/** `{code, message, data}` of the Suno API; null when the text is not that. */
export function parseSunoAnswer(text: string): { code: string; message: string; data: unknown } | null {
  const v = parseJson(text);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Json;
  if (typeof o.code !== 'string') return null;
  return { code: o.code, message: typeof o.message === 'string' ? o.message : '', data: o.data };
}

export type Outcome = 'success' | 'failure' | null;

const MAX_SECONDS = 253_402_300_799;
const secs = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_SECONDS ? v : null;

/** The changes an upstream task object brings to a row, and whether the task ended. */
export function sunoPatch(
  row: Task,
  item: Json,
  nowSeconds: number,
): { fields: Partial<Task>; outcome: Outcome } {
  const f: Partial<Task> = {};
  const status = typeof item.status === 'string' ? item.status.toUpperCase() : '';
  if (status && status !== row.status) f.status = TASK_STATUSES.has(status) ? status : 'UNKNOWN';
  if (typeof item.progress === 'string' && /^\d{1,3}%$/.test(item.progress) && item.progress !== row.progress)
    f.progress = item.progress;
  const failReason = cleanText(item.fail_reason, 2000);
  if (failReason && failReason !== row.fail_reason) f.fail_reason = failReason;
  const start = secs(item.start_time);
  if (start && start !== row.start_time) f.start_time = start;
  const finish = secs(item.finish_time);
  if (finish && finish !== row.finish_time) f.finish_time = finish;
  if (item.data !== undefined && item.data !== null) {
    const d = JSON.stringify(item.data);
    if (d.length <= 1_048_576 && d !== row.data) f.data = cleanText(d, 1_048_576);
  }
  const current = f.status ?? row.status;
  let outcome: Outcome = null;
  if (current === 'SUCCESS') outcome = 'success';
  else if (current === 'FAILURE' || failReason) outcome = 'failure';
  if (outcome) {
    if (outcome === 'failure' && current !== 'FAILURE') f.status = 'FAILURE';
    if ((f.progress ?? row.progress) !== '100%') f.progress = '100%';
    if (!(f.finish_time ?? row.finish_time)) f.finish_time = nowSeconds;
  } else if (current === 'IN_PROGRESS' && !(f.start_time ?? row.start_time)) f.start_time = nowSeconds;
  if (Object.keys(f).length) f.updated_at = nowSeconds;
  return { fields: f, outcome };
}

/** The task object answered by /suno/fetch (the Suno API's shape, from the stored row). */
export function sunoTaskDto(row: Task): Json {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: parseJson(row.data, null),
  };
}
