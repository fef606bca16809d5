import { fail } from '../../common/app-error';

export const REDEMPTION_NAME_MAX = 20;
export const REDEMPTION_CREATE_MAX = 100;
/** Largest quota a JSON number carries exactly. */
export const REDEMPTION_QUOTA_MAX = Number.MAX_SAFE_INTEGER;
/** Latest accepted expiry: 9999-12-31T23:59:59Z. */
export const REDEMPTION_EXPIRY_MAX = 253402300799;
/** Codes are looked up only up to the column's length. */
export const REDEMPTION_KEY_MAX = 64;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** 1–20 characters (code points), no control characters; `fallback` stands in for an empty name. */
export function checkName(v: unknown, fallback?: string): string {
  if ((v === undefined || v === null || (typeof v === 'string' && !v.trim())) && fallback !== undefined)
    return fallback;
  if (v !== undefined && v !== null && typeof v !== 'string')
    throw fail('field_invalid', { field: 'name', reason: 'must be text' });
  const name = typeof v === 'string' ? v.trim() : '';
  const length = [...name].length;
  if (length < 1 || length > REDEMPTION_NAME_MAX) throw fail('redemption_name_length');
  if (CONTROL.test(name)) throw fail('redemption_name_invalid');
  return name;
}

export function checkQuota(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
    throw fail('redemption_quota_invalid', { max: REDEMPTION_QUOTA_MAX });
  return v;
}

/** How many codes to create: 1 … 100 (absent: 1). */
export function checkCount(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw fail('redemption_count_invalid');
  if (v < 1) throw fail('redemption_count_min');
  if (v > REDEMPTION_CREATE_MAX) throw fail('redemption_count_max', { max: REDEMPTION_CREATE_MAX });
  return v;
}

/** 0 (never) or unix seconds in the future. */
export function checkExpiry(v: unknown, now: number): number {
  if (v === undefined || v === null || v === 0) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= now || v > REDEMPTION_EXPIRY_MAX)
    throw fail('redemption_expiry_invalid');
  return v;
}

/** A code whose expiry has passed can no longer be redeemed (its status stays 1). */
export function isExpired(expiredTime: number, now: number): boolean {
  return expiredTime !== 0 && expiredTime <= now;
}
