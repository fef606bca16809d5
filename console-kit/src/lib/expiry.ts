import dayjs from 'dayjs';

/** The expiry text format of the drawer (docs/decisions.md#expiry-format). */
export const EXPIRY_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** `expired_time` of a token that never expires. */
export const NEVER_EXPIRES = -1;

/** Expiry presets of the drawer: never, one month, one day, one hour, one minute from now. */
export const EXPIRY_PRESETS = [
  { id: 'never', months: 0, days: 0, hours: 0, minutes: 0 },
  { id: 'month', months: 1, days: 0, hours: 0, minutes: 0 },
  { id: 'day', months: 0, days: 1, hours: 0, minutes: 0 },
  { id: 'hour', months: 0, days: 0, hours: 1, minutes: 0 },
  { id: 'minute', months: 0, days: 0, hours: 0, minutes: 1 },
] as const;
export type ExpiryPresetId = (typeof EXPIRY_PRESETS)[number]['id'];

/** The expiry text a preset gives at `now`: '' for never (the drawer's "never" state). */
export function expiryFromPreset(id: ExpiryPresetId, now: Date = new Date()): string {
  const preset = EXPIRY_PRESETS.find((entry) => entry.id === id);
  if (!preset || preset.id === 'never') {
    return '';
  }
  return dayjs(now)
    .add(preset.months, 'month')
    .add(preset.days, 'day')
    .add(preset.hours, 'hour')
    .add(preset.minutes, 'minute')
    .format(EXPIRY_FORMAT);
}

/**
 * Expiry text → `expired_time`: '' (or '-1') never expires; otherwise the text must be a full
 * `YYYY-MM-DD HH:mm:ss` date ('expiry time format error' when not).
 */
export function parseExpiry(text: string): { ok: true; value: number } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === String(NEVER_EXPIRES)) {
    return { ok: true, value: NEVER_EXPIRES };
  }
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(trimmed)) {
    return { ok: false };
  }
  const parsed = dayjs(trimmed.replace(' ', 'T'));
  if (!parsed.isValid() || parsed.format(EXPIRY_FORMAT) !== trimmed) {
    return { ok: false };
  }
  return { ok: true, value: Math.floor(parsed.valueOf() / 1000) };
}

/** `expired_time` → the drawer's text ('' for never). */
export function formatExpiry(expiredTime: number): string {
  return expiredTime === NEVER_EXPIRES || !Number.isFinite(expiredTime) || expiredTime <= 0
    ? ''
    : dayjs(expiredTime * 1000).format(EXPIRY_FORMAT);
}
