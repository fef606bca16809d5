/** Converting values read from any of the three drivers (numbers, bigints, numeric strings, dates, buffers). */
import { INT32_MAX } from '../common/ids';

export { INT32_MAX };
export const INT32_MIN = -2147483648;

/** An integer as a bigint, or null when the value is empty or not an integer. */
export function toBigInt(v: unknown): bigint | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return BigInt(s);
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) {
    const n = Number(s);
    return Number.isFinite(n) ? BigInt(Math.trunc(n)) : null;
  }
  return null;
}

export function toFloat(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export function toBool(v: unknown): boolean {
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return v === '1' || v.toLowerCase() === 'true' || v === 't';
  return v === true || v === 1;
}

export function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? null;
}

/** A time as unix seconds: numbers pass through (milliseconds are scaled down), dates and date strings are parsed. */
export function toUnixSeconds(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : Math.floor(v.getTime() / 1000);
  const n = toBigInt(v);
  const s = (toText(v) ?? '').trim();
  if (n !== null && /^-?\d+$/.test(s)) return Number(n > 10_000_000_000n ? n / 1000n : n);
  // SQLite keeps Go times as text: "2024-05-01 10:00:00.123+08:00".
  const iso = s.replace(' ', 'T').replace(/([+-]\d\d)(\d\d)$/, '$1:$2');
  const t = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

export const isBlank = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (typeof v === 'string' && v.trim() === '');

/** Number of characters (code points), as the database counts them. */
export const charLength = (s: string): number => [...s].length;

export const truncateChars = (s: string, max: number): string => [...s].slice(0, max).join('');
