import { isObject } from '../../common/json';
import { chargeOf, TaskCharge } from './task-billing.service';

/**
 * What the gateway keeps with a task row in its `properties` column (never shown as is):
 * the upstream's own `properties` object (Midjourney answers echo it), the open charge, and the
 * caller's callback address (Midjourney `notifyHook`, when callbacks are allowed).
 */
export interface TaskMeta {
  upstream: Record<string, unknown> | null;
  charge: TaskCharge | null;
  notify_hook: string;
  /** The request's text (Suno prompt or description), for the task log. */
  input: string;
}

export function readMeta(text: string | null | undefined): TaskMeta {
  let o: unknown;
  try {
    o = text ? JSON.parse(text) : null;
  } catch {
    o = null;
  }
  const m = isObject(o) ? o : {};
  return {
    upstream: isObject(m.upstream) ? m.upstream : null,
    charge: chargeOf(m.charge),
    notify_hook: typeof m.notify_hook === 'string' ? m.notify_hook : '',
    input: typeof m.input === 'string' ? m.input : '',
  };
}

export function writeMeta(m: TaskMeta): string {
  return JSON.stringify(m);
}

/** JSON text of a column, parsed; `fallback` when empty or not JSON. */
export function parseJson(text: string | null | undefined, fallback: unknown = null): unknown {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Text safe for every database (PostgreSQL refuses NUL) and its column, from upstream values. */
export function cleanText(v: unknown, max: number): string {
  if (typeof v !== 'string') return '';
  // eslint-disable-next-line no-control-regex
  return v.replace(/\u0000/g, '').slice(0, max);
}
