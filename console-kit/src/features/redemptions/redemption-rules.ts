import dayjs from 'dayjs';
import { EXPIRY_PRESETS, formatExpiry, parseExpiry, type ExpiryPresetId } from '../../lib/expiry';
import type { Redemption } from './redemptions-api';

/** A new code's quota and count (docs/decisions.md#redemption-defaults). */
export const DEFAULT_REDEMPTION_QUOTA = 100_000;
export const DEFAULT_REDEMPTION_COUNT = 1;
export const MAX_REDEMPTION_COUNT = 100;
export const MAX_REDEMPTION_NAME = 20;

export type RedemptionStatusName = 'unused' | 'disabled' | 'used' | 'expired' | 'unknown';

/** 1 unused (or expired once its time has passed), 2 disabled, 3 used. */
export function redemptionStatusName(
  code: Pick<Redemption, 'status' | 'expired_time'>,
  nowSeconds: number = Date.now() / 1000,
): RedemptionStatusName {
  switch (code.status) {
    case 1:
      return code.expired_time && code.expired_time > 0 && code.expired_time <= nowSeconds
        ? 'expired'
        : 'unused';
    case 2:
      return 'disabled';
    case 3:
      return 'used';
    default:
      return 'unknown';
  }
}

/** Which row actions apply: used codes cannot be enabled or disabled; only unused codes can be edited. */
export function redemptionActions(code: Pick<Redemption, 'status'>) {
  return {
    enable: code.status === 2,
    disable: code.status === 1,
    edit: code.status === 1,
  };
}

/** `expired_time` of a code that never expires. */
export const REDEMPTION_NEVER_EXPIRES = 0;

/** Expiry presets of the drawer: never, one month, one day, one hour from now. */
export const REDEMPTION_EXPIRY_PRESETS: readonly ExpiryPresetId[] = EXPIRY_PRESETS.map(
  (preset) => preset.id,
).filter((id) => id !== 'minute');

/** `expired_time` → the drawer's text ('' for never). */
export function redemptionExpiryText(expiredTime: number | undefined): string {
  return formatExpiry(expiredTime ?? REDEMPTION_NEVER_EXPIRES);
}

/** `expired_time` → the list's text: null for never. */
export function redemptionExpiryLabel(expiredTime: number | undefined): string | null {
  return !expiredTime || expiredTime <= 0 ? null : dayjs(expiredTime * 1000).format('YYYY-MM-DD HH:mm:ss');
}

export interface RedemptionForm {
  name: string;
  quota: string;
  count: string;
  /** `YYYY-MM-DD HH:mm:ss`, or '' for never. */
  expiry: string;
}

export type RedemptionFormError =
  'nameLength' | 'quotaInvalid' | 'countInvalid' | 'countTooMany' | 'expiryInvalid' | 'expiryPast';

/**
 * Checks the drawer: the name 1-20 characters (empty allowed on create: the server names the code after
 * its quota), the quota a whole number above 0, the count (create only) a whole number 1-100, the
 * expiry '' (never, sent as 0) or a `YYYY-MM-DD HH:mm:ss` time in the future (an unchanged stored one
 * may have passed).
 */
export function validateRedemptionForm(
  form: RedemptionForm,
  creating: boolean,
  nowSeconds: number = Date.now() / 1000,
  storedExpiry: number = REDEMPTION_NEVER_EXPIRES,
):
  | { ok: true; name: string; quota: number; count: number; expiredTime: number }
  | { ok: false; error: RedemptionFormError } {
  const name = form.name.trim();
  const length = [...name].length;
  if ((!creating && length === 0) || length > MAX_REDEMPTION_NAME) {
    return { ok: false, error: 'nameLength' };
  }
  const quotaText = form.quota.trim();
  const quota = Number(quotaText);
  if (!/^\d+$/.test(quotaText) || !Number.isSafeInteger(quota) || quota <= 0) {
    return { ok: false, error: 'quotaInvalid' };
  }
  let count = 1;
  if (creating) {
    const countText = form.count.trim();
    count = Number(countText);
    if (!/^\d+$/.test(countText) || count < 1) {
      return { ok: false, error: 'countInvalid' };
    }
    if (count > MAX_REDEMPTION_COUNT) {
      return { ok: false, error: 'countTooMany' };
    }
  }
  const expiry = parseExpiry(form.expiry);
  if (!expiry.ok) {
    return { ok: false, error: 'expiryInvalid' };
  }
  const expiredTime = expiry.value <= 0 ? REDEMPTION_NEVER_EXPIRES : expiry.value;
  // An edit may keep a stored expiry that has passed; a new or changed one must lie ahead.
  if (expiredTime !== REDEMPTION_NEVER_EXPIRES && expiredTime !== storedExpiry && expiredTime <= nowSeconds) {
    return { ok: false, error: 'expiryPast' };
  }
  return { ok: true, name, quota, count, expiredTime };
}

/** The created codes as one text, one per line (the copy-all button). */
export function codesText(codes: readonly string[]): string {
  return codes.join('\n');
}
