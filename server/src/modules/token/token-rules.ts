import * as ipaddr from 'ipaddr.js';
import { fail } from '../../common/app-error';
import { splitList } from '../../common/lists';

export const TOKEN_NAME_MAX = 50;
/** Largest quota a JSON number carries exactly (2^53 − 1): larger values would be silently rounded. */
export const TOKEN_QUOTA_MAX = Number.MAX_SAFE_INTEGER;
/** Latest accepted expiry: 9999-12-31T23:59:59Z. */
export const TOKEN_EXPIRY_MAX = 253402300799;
export const TOKEN_CREATE_MAX = 100;
/** Tokens a user may hold at once (not configurable). */
export const MAX_TOKENS_PER_USER = 1000;
/** Names of tokens created together get `-` and a random suffix of this alphabet and length. */
export const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const NAME_SUFFIX_LENGTH = 6;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkName(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw fail('field_invalid', { field: 'name', reason: 'must be text' });
  const name = v.trim();
  if (CONTROL.test(name)) throw fail('token_name_invalid');
  if ([...name].length > TOKEN_NAME_MAX) throw fail('token_name_too_long', { max: TOKEN_NAME_MAX });
  return name;
}

export function checkRemainQuota(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > TOKEN_QUOTA_MAX)
    throw fail('token_quota_invalid', { max: TOKEN_QUOTA_MAX });
  return v;
}

/** -1 (never) or unix seconds in the future. */
export function checkExpiry(v: unknown, now: number): number {
  if (v === -1) return -1;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= now || v > TOKEN_EXPIRY_MAX)
    throw fail('token_expiry_invalid');
  return v;
}

export function checkBool(v: unknown, field: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  throw fail('field_invalid', { field, reason: 'must be true or false' });
}

/** Comma list (an array of names is accepted too), normalised. */
export function checkModelLimits(v: unknown): string {
  if (v === undefined || v === null) return '';
  let items: string[];
  if (typeof v === 'string') items = splitList(v);
  else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) items = splitList(v.join(','));
  else throw fail('token_model_limits_invalid', { reason: 'a comma-separated list of model names' });
  if (items.some((m) => CONTROL.test(m)))
    throw fail('token_model_limits_invalid', { reason: 'control characters' });
  return items.join(',');
}

/** Exact IP or CIDR text: four-part decimal IPv4 (no `1`, `0x7f.1` or `010.1.1.1`), or IPv6. */
function validIp(s: string): boolean {
  if (s.includes(':')) return ipaddr.IPv6.isValid(s);
  return ipaddr.IPv4.isValidFourPartDecimal(s);
}

function validEntry(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return validIp(s);
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || !validIp(addr)) return false;
  return ipaddr.isValidCIDR(s);
}

/** One IP or CIDR per line (commas are accepted as separators too); normalised to one per line. */
export function checkAllowIps(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw fail('token_ip_invalid', { ip: String(JSON.stringify(v)).slice(0, 40) });
  const entries = v
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const e of entries) if (!validEntry(e)) throw fail('token_ip_invalid', { ip: e.slice(0, 60) });
  return [...new Set(entries)].join('\n');
}

export function checkCount(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > TOKEN_CREATE_MAX)
    throw fail('token_count_invalid', { max: TOKEN_CREATE_MAX });
  return v;
}

/** Most ids one batch call may name. */
export const TOKEN_BATCH_IDS_MAX = 1000;

/** The ids of a batch call: a non-empty list of whole numbers, at most TOKEN_BATCH_IDS_MAX. */
export function checkTokenIds(v: unknown): number[] {
  if (!Array.isArray(v) || v.length === 0) throw fail('token_ids_required');
  if (v.length > TOKEN_BATCH_IDS_MAX || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x)))
    throw fail('field_invalid', {
      field: 'ids',
      reason: `a list of at most ${TOKEN_BATCH_IDS_MAX} token ids`,
    });
  return v as number[];
}
