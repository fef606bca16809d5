import { fail } from '../../common/app-error';

/** Server-side account rules shared by registration, setup, admin creation and password changes. */
export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DISPLAY_NAME_MAX = 20;

export function checkUsername(raw: unknown): string {
  const username = typeof raw === 'string' ? raw.trim() : '';
  if (!username) throw fail('username_password_required');
  if ([...username].length > USERNAME_MAX) throw fail('username_too_long');
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\u200b-\u200f\u2028\u2029\ufeff]/.test(username)) throw fail('username_invalid');
  if (lookalike(username)) throw fail('username_lookalike');
  return username;
}

/** Bidirectional controls: they reorder what an admin reads (`root` + U+202E, a reversed display name). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Whether a username could pass for another one: it changes under NFKC (full-width letters,
 * ligatures, compatibility forms), carries combining marks or direction controls, holds a Latin
 * letter that reads as i or s (dotless ı, İ, ſ), or mixes Latin letters with Cyrillic or Greek ones
 * (`rооt` with Cyrillic о). Names in one script (Chinese, Cyrillic, …) stay allowed. Case is not
 * folded: usernames compare exactly on every database.
 */
export function lookalike(name: string): boolean {
  if (name.normalize('NFKC') !== name) return true;
  if (/\p{M}/u.test(name) || BIDI.test(name)) return true;
  if (/[\u0130\u0131\u017f]/.test(name)) return true;
  const latin = /\p{Script=Latin}/u.test(name);
  return latin && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(name);
}

export function checkPassword(raw: unknown): string {
  const password = typeof raw === 'string' ? raw : '';
  if (!password) throw fail('username_password_required');
  if (password.length < PASSWORD_MIN) throw fail('password_too_short');
  if (password.length > PASSWORD_MAX) throw fail('password_too_long');
  return password;
}

export function checkDisplayName(raw: unknown, fallback: string): string {
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (typeof raw !== 'string') throw fail('field_invalid', { field: 'display_name', reason: 'must be text' });
  const name = raw.trim();
  if ([...name].length > DISPLAY_NAME_MAX) throw fail('display_name_too_long');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name) || BIDI.test(name))
    throw fail('field_invalid', { field: 'display_name', reason: 'control characters' });
  return name || fallback;
}

const EMAIL =
  // eslint-disable-next-line no-control-regex
  /^[^\s\u0000-\u001f\u007f@"<>()[\]\\,;:]{1,64}@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export function checkEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim() : '';
  if (!email) throw fail('email_required');
  if (email.length > 254 || !EMAIL.test(email)) throw fail('email_invalid');
  return email.toLowerCase();
}

/** A quota amount: a whole number within the 64-bit range we can represent exactly. */
export function checkQuota(raw: unknown, { allowNegative = false } = {}): number {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || (!allowNegative && n < 0))
    throw fail('quota_invalid');
  return n;
}
