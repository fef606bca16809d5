/**
 * The idle deadlines of open streams, checked together by one timer. A timer of its own per stream
 * cost more than a short stream's per-event work: with streams one after another, each call created
 * and dropped a timer list and re-armed the event loop's timer. Here a stream only adds itself to a set
 * and moves its `at` forward as events come; a deadline fires within TICK_MS after it passes (the
 * limits are whole seconds). The timer runs while streams are open and stops on the first tick with
 * none.
 */
export interface Deadline {
  /** Epoch ms at which `expire` runs (Infinity: never). */
  at: number;
  expire(): void;
}

export const TICK_MS = 100;

const open = new Set<Deadline>();
let timer: NodeJS.Timeout | null = null;

function tick(): void {
  if (!open.size) {
    clearInterval(timer!);
    timer = null;
    return;
  }
  const now = Date.now();
  for (const d of open)
    if (now >= d.at) {
      open.delete(d);
      d.expire();
    }
}

/** Starts watching `d` (until it expires or `unwatch`). */
export function watch(d: Deadline): void {
  open.add(d);
  if (!timer) {
    timer = setInterval(tick, TICK_MS);
    timer.unref();
  }
}

export function unwatch(d: Deadline): void {
  open.delete(d);
}
