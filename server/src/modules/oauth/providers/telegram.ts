import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../../../common/app-error';

/** How old the widget's auth_date may be. */
export const TELEGRAM_AUTH_MAX_AGE_SECONDS = 3600;
/** How far auth_date may lie in the future (clock differences). */
const FUTURE_SKEW_SECONDS = 60;
/** Parameters that are ours, not Telegram's: they are not part of the signed data. */
const OWN_PARAMS = new Set(['hash', 'state', 'lang']);

export interface TelegramLogin {
  id: string;
  username?: string;
  displayName?: string;
  /** The verified hash (used to refuse a replay of the same payload). */
  hash: string;
}

/**
 * Checks the Login Widget's payload as Telegram specifies: the data-check-string is every received
 * field but `hash`, as `key=value` sorted by key and joined with newlines; its HMAC-SHA256 under the
 * key SHA256(bot token) must equal `hash`; `auth_date` must be recent.
 */
export function verifyTelegramLogin(
  fields: Record<string, unknown>,
  botToken: string,
  now: number,
): TelegramLogin {
  const hash = fields.hash;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/i.test(hash)) throw fail('telegram_hash_invalid');
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (OWN_PARAMS.has(key)) continue;
    if (typeof value !== 'string') throw fail('telegram_hash_invalid'); // repeated or structured parameter
    pairs.push(`${key}=${value}`);
  }
  pairs.sort();
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(pairs.join('\n')).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) throw fail('telegram_hash_invalid');

  const id = fields.id;
  const authDate = fields.auth_date;
  if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) throw fail('telegram_hash_invalid');
  if (typeof authDate !== 'string' || !/^\d{1,12}$/.test(authDate)) throw fail('telegram_auth_expired');
  const age = now - Number(authDate);
  if (age > TELEGRAM_AUTH_MAX_AGE_SECONDS || age < -FUTURE_SKEW_SECONDS) throw fail('telegram_auth_expired');
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const name = [text(fields.first_name), text(fields.last_name)].filter(Boolean).join(' ');
  return { id, username: text(fields.username), displayName: name || undefined, hash: hash.toLowerCase() };
}
