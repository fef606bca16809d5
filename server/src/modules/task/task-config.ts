/**
 * Background polling of unfinished tasks, read from the environment once at boot:
 *
 * - `TASK_POLL_INTERVAL`: seconds between two polls on the master node (decimals allowed, default 15;
 *   0 turns background polling off).
 * - `TASK_TIMEOUT`: seconds after its submission when an unfinished task fails and is refunded
 *   (default 3600).
 */
export interface TaskConfig {
  /** Milliseconds between polls; 0 = no background polling. */
  pollIntervalMs: number;
  /** Milliseconds after submission when an unfinished task is failed and refunded. */
  timeoutMs: number;
}

/** Task ids asked from an upstream per call. */
export const POLL_BATCH = 100;
/** Unfinished tasks looked at per poll and platform (oldest first). */
export const POLL_LIMIT = 1000;

export class TaskConfigError extends Error {}

function seconds(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d{1,9}(\.\d{1,3})?$/.test(raw))
    throw new TaskConfigError(`${name} must be a number of seconds, got "${raw}"`);
  const v = Number(raw);
  if (v !== 0 && (v < min || v > max))
    throw new TaskConfigError(`${name} must be 0 or between ${min} and ${max} seconds`);
  return v;
}

export function loadTaskConfig(env: NodeJS.ProcessEnv = process.env): TaskConfig {
  const interval = seconds(env, 'TASK_POLL_INTERVAL', 15, 0.05, 86_400);
  const timeout = seconds(env, 'TASK_TIMEOUT', 3600, 1, 30 * 86_400) || 3600;
  return { pollIntervalMs: Math.round(interval * 1000), timeoutMs: Math.round(timeout * 1000) };
}
