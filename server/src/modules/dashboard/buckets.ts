/** Time buckets of the dashboard, in the server's local time (TZ). */
export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const isGranularity = (v: string): v is Granularity =>
  (GRANULARITIES as readonly string[]).includes(v);

/** The start (unix seconds) of the hour, day or week (starting Monday) that holds `ts`. */
export function bucketStart(ts: number, g: Granularity): number {
  const d = new Date(ts * 1000);
  d.setMinutes(0, 0, 0);
  if (g !== 'hour') d.setHours(0);
  if (g === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return Math.floor(d.getTime() / 1000);
}
