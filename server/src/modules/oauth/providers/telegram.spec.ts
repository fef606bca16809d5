import { createHash, createHmac } from 'node:crypto';
import { AppError } from '../../../common/app-error';
import { TELEGRAM_AUTH_MAX_AGE_SECONDS, verifyTelegramLogin } from './telegram';

const TOKEN = '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const NOW = 1_700_000_000;

/** Signs the way Telegram documents it, written out independently of the code under test. */
function signed(fields: Record<string, string>, token = TOKEN): Record<string, string> {
  const dataCheck = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const key = createHash('sha256').update(token, 'utf8').digest();
  return { ...fields, hash: createHmac('sha256', key).update(dataCheck, 'utf8').digest('hex') };
}

const keyOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).key;
  }
  return 'accepted';
};

describe('verifyTelegramLogin', () => {
  const base = {
    id: '42',
    first_name: 'Ada',
    last_name: 'L',
    username: 'ada',
    photo_url: 'https://t.me/i/a.jpg',
    auth_date: String(NOW - 10),
  };

  it('accepts a payload Telegram signed, whatever the order of its fields', () => {
    const p = signed(base);
    const reordered = Object.fromEntries(Object.entries(p).reverse());
    expect(verifyTelegramLogin(reordered, TOKEN, NOW)).toEqual({
      id: '42',
      username: 'ada',
      displayName: 'Ada L',
      hash: p.hash,
    });
    expect(keyOf(() => verifyTelegramLogin({ ...p, hash: p.hash.toUpperCase() }, TOKEN, NOW))).toBe(
      'accepted',
    );
  });

  it('leaves our own parameters (state, lang) out of the signed data, but nothing else', () => {
    const p = signed(base);
    expect(keyOf(() => verifyTelegramLogin({ ...p, state: 's'.repeat(43), lang: 'zh' }, TOKEN, NOW))).toBe(
      'accepted',
    );
    expect(keyOf(() => verifyTelegramLogin({ ...p, extra: '1' }, TOKEN, NOW))).toBe('telegram_hash_invalid');
  });

  it('refuses changed, missing or repeated fields and other bots', () => {
    const p = signed(base);
    expect(keyOf(() => verifyTelegramLogin({ ...p, id: '43' }, TOKEN, NOW))).toBe('telegram_hash_invalid');
    const { photo_url: _dropped, ...without } = p;
    expect(keyOf(() => verifyTelegramLogin(without, TOKEN, NOW))).toBe('telegram_hash_invalid');
    expect(keyOf(() => verifyTelegramLogin({ ...p, username: ['ada', 'eve'] }, TOKEN, NOW))).toBe(
      'telegram_hash_invalid',
    );
    expect(keyOf(() => verifyTelegramLogin(p, '1:other-bot', NOW))).toBe('telegram_hash_invalid');
    expect(keyOf(() => verifyTelegramLogin({ ...p, hash: undefined }, TOKEN, NOW))).toBe(
      'telegram_hash_invalid',
    );
    expect(keyOf(() => verifyTelegramLogin({ ...p, hash: 'g'.repeat(64) }, TOKEN, NOW))).toBe(
      'telegram_hash_invalid',
    );
    expect(keyOf(() => verifyTelegramLogin(signed({ ...base, id: 'abc' }), TOKEN, NOW))).toBe(
      'telegram_hash_invalid',
    );
  });

  it('wants a recent auth_date', () => {
    const at = (age: number) => signed({ ...base, auth_date: String(NOW - age) });
    expect(keyOf(() => verifyTelegramLogin(at(TELEGRAM_AUTH_MAX_AGE_SECONDS), TOKEN, NOW))).toBe('accepted');
    expect(keyOf(() => verifyTelegramLogin(at(TELEGRAM_AUTH_MAX_AGE_SECONDS + 1), TOKEN, NOW))).toBe(
      'telegram_auth_expired',
    );
    expect(keyOf(() => verifyTelegramLogin(at(-61), TOKEN, NOW))).toBe('telegram_auth_expired');
    expect(keyOf(() => verifyTelegramLogin(signed({ ...base, auth_date: 'soon' }), TOKEN, NOW))).toBe(
      'telegram_auth_expired',
    );
  });
});
