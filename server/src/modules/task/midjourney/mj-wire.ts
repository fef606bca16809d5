/**
 * The Midjourney-proxy wire format (midjourney-proxy and its "plus" variant): submit routes and their
 * bodies, the action a request performs, the model it is billed as, and the task object the proxy
 * answers with. Pure functions; the service does the I/O.
 */
import type { Midjourney } from '../../../database/entities';
import { RelayError } from '../../relay';
import { cleanText, parseJson, readMeta } from '../task-meta';

export const MJ_SUBMIT_ROUTES = [
  'imagine',
  'change',
  'simple-change',
  'describe',
  'blend',
  'shorten',
  'modal',
  'action',
  'upload-discord-images',
] as const;
export type MjRoute = (typeof MJ_SUBMIT_ROUTES)[number];

export const MJ_ACTIONS = [
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
export type MjAction = (typeof MJ_ACTIONS)[number];

/** Task statuses of the proxy. */
export const MJ_STATUSES = new Set([
  'NOT_START',
  'SUBMITTED',
  'MODAL',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'CANCEL',
]);
/** Statuses after which a task never changes again. */
export const MJ_FINISHED = ['SUCCESS', 'FAILURE', 'CANCEL'];

/** Midjourney channel types: Midjourney Proxy (2) and Midjourney Proxy Plus (5). */
export const MJ_CHANNEL_TYPES = [2, 5];

/** Submit result codes meaning the upstream took the task: submitted, exists, queued. */
export const MJ_ACCEPTED = new Set([1, 21, 22]);
/** The proxy's "no available account instance" code: the channel cannot serve at all. */
export const MJ_NO_INSTANCE = 3;

/** Actions that only open a modal window; the modal submission that follows is billed. */
export const MJ_FREE_ACTIONS = new Set<MjAction>(['INPAINT', 'CUSTOM_ZOOM']);

/** The model name an action is billed and routed as (ModelPrice: mj_imagine, mj_upscale, ...). */
export function mjModel(action: MjAction): string {
  switch (action) {
    case 'SWAP_FACE':
      return 'swap_face';
    case 'HIGH_VARIATION':
    case 'LOW_VARIATION':
      return 'mj_variation';
    case 'INPAINT':
    case 'CUSTOM_ZOOM':
      return 'mj_modal';
    default:
      return `mj_${action.toLowerCase()}`;
  }
}

export type Json = Record<string, unknown>;

/** What a submission does, decided from its route and body before anything is charged. */
export interface MjPlan {
  route: MjRoute;
  action: MjAction;
  /** The task this action acts on (change, simple-change, action, modal), by its proxy id. */
  originId: string | null;
  /** The prompt recorded with the task (follow-up actions take the original's when they send none). */
  prompt: string;
  /** The caller's `state`, echoed in task answers. */
  state: string;
  /** The caller's callback address, if any. */
  notifyHook: string;
}

const bad = (reason: string) => new RelayError(400, 'task_bad_body', { reason }, '', 'invalid_request');

const MAX_PROMPT = 8192;
const MAX_ID = 64;

function optString(body: Json, field: string, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  if (v.length > max) throw bad(`${field} is longer than ${max} characters`);
  return v;
}

function reqString(body: Json, field: string, max: number): string {
  const v = optString(body, field, max).trim();
  if (!v) throw bad(`${field} is required`);
  return v;
}

function taskId(body: Json, field = 'taskId'): string {
  const v = reqString(body, field, MAX_ID);
  if (!/^[A-Za-z0-9_.:-]+$/.test(v)) throw bad(`${field} is not a task id`);
  return v;
}

function images(body: Json, field: string, min: number, max: number, required: boolean): void {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw bad(`${field} is required`);
    return;
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x))
    throw bad(`${field} must be an array of base64 images`);
  if (v.length < min || v.length > max) throw bad(`${field} must hold ${min} to ${max} images`);
}

/** Strings no database can store (NUL) anywhere in the body: refused rather than silently changed. */
function hasNul(v: unknown, depth = 0): boolean {
  if (depth > 20) return false;
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some((x) => hasNul(x, depth + 1));
  if (v && typeof v === 'object')
    return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
  return false;
}

/** The action of a "plus" button (`customId`), as midjourney-proxy-plus names them. */
export function actionOfCustomId(customId: string): MjAction {
  const parts = customId.split('::');
  if (parts.length < 3 || parts[0] !== 'MJ') throw bad('customId is not a Midjourney button id');
  const name = parts[1] === 'JOB' ? parts[2] : parts[1];
  if (name.includes('upsample')) return 'UPSCALE';
  if (name === 'low_variation') return 'LOW_VARIATION';
  if (name === 'high_variation') return 'HIGH_VARIATION';
  if (name.includes('variation')) return 'VARIATION';
  if (name.includes('pan')) return 'PAN';
  if (name.includes('reroll')) return 'REROLL';
  if (name === 'Outpaint') return 'ZOOM';
  if (name === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (name === 'Inpaint') return 'INPAINT';
  throw bad(`unknown button ${name.slice(0, 40)}`);
}

/** `"<task id> U1"` → the task and action of a simple change (U1–U4, V1–V4, R). */
export function parseSimpleChange(content: string): { taskId: string; action: MjAction } {
  const parts = content.trim().split(/\s+/);
  if (parts.length !== 2 || !/^[A-Za-z0-9_.:-]{1,64}$/.test(parts[0]))
    throw bad('content must be "<task id> U1..U4|V1..V4|R"');
  const op = parts[1].toUpperCase();
  if (op === 'R') return { taskId: parts[0], action: 'REROLL' };
  const m = /^([UV])([1-4])$/.exec(op);
  if (!m) throw bad('content must be "<task id> U1..U4|V1..V4|R"');
  return { taskId: parts[0], action: m[1] === 'U' ? 'UPSCALE' : 'VARIATION' };
}

/** Validates a submission and decides its action. Wrong types and missing fields → 400. */
export function planMj(route: MjRoute, body: Json): MjPlan {
  if (hasNul(body)) throw bad('text must not contain NUL characters');
  const state = optString(body, 'state', 4096);
  const notifyHook = optString(body, 'notifyHook', 2048).trim();
  if (
    body.accountFilter !== undefined &&
    body.accountFilter !== null &&
    (typeof body.accountFilter !== 'object' || Array.isArray(body.accountFilter))
  )
    throw bad('accountFilter must be an object');
  for (const f of ['botType', 'dimensions', 'maskBase64', 'base64', 'link'])
    if (body[f] !== undefined && body[f] !== null && typeof body[f] !== 'string')
      throw bad(`${f} must be a string`);
  const plan = (action: MjAction, prompt: string, originId: string | null = null): MjPlan => ({
    route,
    action,
    originId,
    prompt,
    state,
    notifyHook,
  });
  switch (route) {
    case 'imagine':
      images(body, 'base64Array', 0, 5, false);
      return plan('IMAGINE', reqString(body, 'prompt', MAX_PROMPT));
    case 'shorten':
      return plan('SHORTEN', reqString(body, 'prompt', MAX_PROMPT));
    case 'describe':
      if (!optString(body, 'base64', 64 * 1024 * 1024).trim() && !optString(body, 'link', 4096).trim())
        throw bad('base64 is required');
      return plan('DESCRIBE', '');
    case 'blend':
      images(body, 'base64Array', 2, 5, true);
      return plan('BLEND', '');
    case 'upload-discord-images':
      images(body, 'base64Array', 1, 10, true);
      return plan('UPLOAD', '');
    case 'change': {
      const id = taskId(body);
      const action = reqString(body, 'action', 20).toUpperCase();
      if (action !== 'UPSCALE' && action !== 'VARIATION' && action !== 'REROLL')
        throw bad('action must be UPSCALE, VARIATION or REROLL');
      const index = body.index;
      if (action !== 'REROLL' || index !== undefined) {
        if (typeof index !== 'number' || !Number.isInteger(index) || index < 1 || index > 4)
          throw bad('index must be an integer from 1 to 4');
      }
      return plan(action, '', id);
    }
    case 'simple-change': {
      const { taskId: id, action } = parseSimpleChange(reqString(body, 'content', 200));
      return plan(action, '', id);
    }
    case 'action': {
      const id = taskId(body);
      return plan(actionOfCustomId(reqString(body, 'customId', 512)), '', id);
    }
    case 'modal':
      return plan('MODAL', optString(body, 'prompt', MAX_PROMPT), taskId(body));
  }
}

/**
 * The body sent upstream: the caller's, with `notifyHook` replaced by the gateway's own callback (or
 * removed), `accountFilter` removed unless MjAccountFilterEnabled, and with MjModeClearEnabled the
 * --fast / --relax / --turbo switches taken out of the prompt.
 */
export function upstreamBody(
  body: Json,
  opts: { accountFilter: boolean; modeClear: boolean; notifyHook: string },
): Json {
  const out: Json = { ...body };
  delete out.notifyHook;
  if (opts.notifyHook) out.notifyHook = opts.notifyHook;
  if (!opts.accountFilter) delete out.accountFilter;
  if (opts.modeClear && typeof out.prompt === 'string') out.prompt = clearModes(out.prompt);
  return out;
}

export function clearModes(prompt: string): string {
  return prompt
    .replace(/--(fast|relax|turbo)\b/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * The proxy's `properties` object without the callback address the gateway gave it (`notifyHook`:
 * its signature must never reach callers, or they could report their own tasks failed); null when
 * not an object.
 */
export function scrubProperties(v: unknown): Json | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const out: Json = {};
  for (const [k, x] of Object.entries(v as Json)) {
    if (k.toLowerCase() === 'notifyhook') continue;
    if (typeof x === 'string' && x.includes('/mj/notify')) continue;
    out[k] = x;
  }
  return out;
}

/** The submit answer of the proxy: {code, description, result, properties}. */
export interface MjSubmitAnswer {
  code: number;
  description: string;
  result: unknown;
  properties: Json | null;
}

export function parseSubmitAnswer(text: string): MjSubmitAnswer | null {
  const v = parseJson(text);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Json;
  if (typeof o.code !== 'number' || !Number.isInteger(o.code)) return null;
  return {
    code: o.code,
    description: typeof o.description === 'string' ? o.description : '',
    result: o.result,
    properties: scrubProperties(o.properties),
  };
}

export type Outcome = 'success' | 'failure' | null;

/** The columns an upstream task object changes, and whether the task ended. */
export interface MjPatch {
  fields: Partial<Midjourney>;
  upstream: Json | null;
  outcome: Outcome;
}

const MAX_MS = 253_402_300_799_999;
const ms = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_MS ? v : null;

function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string' || !v || v.length > 4096) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The changes a task object of the proxy (fetch, list-by-condition, or its callback) brings to a row.
 * SUCCESS ends the task; FAILURE or CANCEL, or a failure reason before 100 %, ends it failed.
 */
export function mjPatch(row: Midjourney, item: Json, now: number): MjPatch {
  const f: Partial<Midjourney> = {};
  const status = typeof item.status === 'string' ? item.status.toUpperCase() : '';
  if (MJ_STATUSES.has(status) && status !== row.status) f.status = status;
  if (typeof item.progress === 'string' && /^\d{1,3}%$/.test(item.progress) && item.progress !== row.progress)
    f.progress = item.progress;
  const image = httpUrl(item.imageUrl);
  if (image && image !== row.image_url) f.image_url = image;
  const failReason = cleanText(item.failReason, 2000);
  if (failReason && failReason !== row.fail_reason) f.fail_reason = failReason;
  const promptEn = cleanText(item.promptEn, 16_384);
  if (promptEn && promptEn !== row.prompt_en) f.prompt_en = promptEn;
  const start = ms(item.startTime);
  if (start && start !== row.start_time) f.start_time = start;
  const finish = ms(item.finishTime);
  if (finish && finish !== row.finish_time) f.finish_time = finish;
  if (Array.isArray(item.buttons)) {
    const b = JSON.stringify(item.buttons);
    if (b.length <= 65_536 && b !== row.buttons) f.buttons = cleanText(b, 65_536);
  }
  const upstream = scrubProperties(item.properties);
  const current = f.status ?? row.status;
  const progress = f.progress ?? row.progress;
  let outcome: Outcome = null;
  if (current === 'SUCCESS') outcome = 'success';
  else if (current === 'FAILURE' || current === 'CANCEL' || (failReason && progress !== '100%'))
    outcome = 'failure';
  if (outcome) {
    if (outcome === 'failure' && current !== 'CANCEL' && current !== 'FAILURE') f.status = 'FAILURE';
    if (progress !== '100%') f.progress = '100%';
    if (!(f.finish_time ?? row.finish_time)) f.finish_time = now;
    if (!(f.start_time ?? row.start_time)) f.start_time = now;
  } else if (current === 'IN_PROGRESS' && !(f.start_time ?? row.start_time)) f.start_time = now;
  if (upstream && JSON.stringify(upstream) !== JSON.stringify(readMeta(row.properties).upstream))
    return { fields: f, upstream, outcome };
  return { fields: f, upstream: null, outcome };
}

/** The task object the gateway answers with (the proxy's own shape, from the stored row). */
export interface MjTaskDto {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  status: string;
  progress: string;
  failReason: string;
  buttons: unknown[];
  properties: Json;
}

/** With MjForwardUrlEnabled, image URLs point at the gateway's /mj/image/{id} (ServerAddress-based). */
export function imageUrlOf(row: Midjourney, forward: boolean, serverAddress: string): string {
  const url = row.image_url ?? '';
  if (!url || !forward) return url;
  return `${serverAddress.replace(/\/+$/, '')}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

export function mjTaskDto(row: Midjourney, forward: boolean, serverAddress: string): MjTaskDto {
  const buttons = parseJson(row.buttons, []);
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl: imageUrlOf(row, forward, serverAddress),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: Array.isArray(buttons) ? buttons : [],
    properties: readMeta(row.properties).upstream ?? {},
  };
}
