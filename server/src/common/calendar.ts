/**
 * Calendar periods (day, week from Monday, month) in an IANA time zone, for reports (and any figure
 * an operator reads "per day" or "per month"). A time zone's offset changes at daylight-saving
 * transitions; within a stretch of constant offset, the local date of an instant is
 * floor((ts + offset) / 86400), which a database can compute. So a range is cut into such stretches.
 */
export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

const DAY = 86_400;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `zone` is a time zone name this runtime knows (e.g. Asia/Shanghai, UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The time zone of the server process (TZ), as an IANA name. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Local wall-clock time minus UTC, in seconds, at the instant `ts` (unix seconds). */
export function offsetAt(zone: string, ts: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ts * 1000)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall =
    Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) / 1000;
  return wall - Math.floor(ts);
}

export interface OffsetStretch {
  /** First second (inclusive). */
  from: number;
  /** Last second (inclusive). */
  to: number;
  offset: number;
}

/** [start, end] cut where the zone's offset changes (checked every 6 hours, then to the second). */
export function offsetStretches(zone: string, start: number, end: number): OffsetStretch[] {
  const out: OffsetStretch[] = [];
  const STEP = DAY / 4;
  let from = start;
  let offset = offsetAt(zone, start);
  let probe = start;
  while (probe < end) {
    const next = Math.min(probe + STEP, end);
    const o = offsetAt(zone, next);
    if (o !== offset) {
      // First second in (probe, next] with the new offset.
      let lo = probe;
      let hi = next;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(zone, mid) === offset) lo = mid;
        else hi = mid;
      }
      out.push({ from, to: hi - 1, offset });
      from = hi;
      offset = o;
    }
    probe = next;
  }
  out.push({ from, to: end, offset });
  return out;
}

/** The local date of a day number (days since 1970-01-01 on the wall clock). */
const dateOf = (day: number) => new Date(day * DAY * 1000);

/** The day number on which the period holding local day `day` starts (Monday for weeks, the 1st for months). */
export function periodStartDay(day: number, period: Period): number {
  if (period === 'day') return day;
  const d = dateOf(day);
  if (period === 'week') return day - ((d.getUTCDay() + 6) % 7);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000 / DAY;
}

/** The day number on which the period after the one starting on `startDay` starts. */
export function nextPeriodStartDay(startDay: number, period: Period): number {
  if (period === 'day') return startDay + 1;
  if (period === 'week') return startDay + 7;
  const d = dateOf(startDay);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000 / DAY;
}

/** The period's name: 2026-11-25 (day), 2026-11-23 (week: its Monday), 2026-11 (month). */
export function periodLabel(startDay: number, period: Period): string {
  const iso = dateOf(startDay).toISOString();
  return period === 'month' ? iso.slice(0, 7) : iso.slice(0, 10);
}

/** The instant (unix seconds) at which local day `day` starts in `zone`. */
export function dayStartInstant(zone: string, day: number): number {
  const wall = day * DAY;
  let ts = wall - offsetAt(zone, wall);
  ts = wall - offsetAt(zone, ts);
  return ts;
}

/** The local day number of instant `ts` in `zone`. */
export function localDay(zone: string, ts: number): number {
  return Math.floor((ts + offsetAt(zone, ts)) / DAY);
}

/** The period holding `ts` in `zone`: its first second and the first second of the next one. */
export function periodBounds(zone: string, ts: number, period: Period): { start: number; end: number } {
  const first = periodStartDay(localDay(zone, ts), period);
  return {
    start: dayStartInstant(zone, first),
    end: dayStartInstant(zone, nextPeriodStartDay(first, period)),
  };
}
