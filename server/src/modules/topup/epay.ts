import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The epay ("易支付") gateway protocol: the shop posts a signed form to `<PayAddress>/submit.php`; the
 * gateway calls the notify URL back with the order's fields, signed the same way, and expects the
 * plain text `success` (anything else makes it retry).
 *
 * Signature: every parameter except `sign` and `sign_type` whose value is not empty, sorted by name
 * (byte order), joined as `a=1&b=2`, the merchant key appended, MD5 in lower-case hex.
 */

export const EPAY_TRADE_SUCCESS = 'TRADE_SUCCESS';
export const EPAY_SUBMIT_PATH = '/submit.php';

export function epaySign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** True when `params.sign` is the signature of the other parameters under `key` (constant-time compare). */
export function epayVerify(params: Record<string, string>, key: string): boolean {
  const given = params.sign;
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{32}$/.test(given)) return false;
  if (params.sign_type !== undefined && params.sign_type.toUpperCase() !== 'MD5') return false;
  const expected = epaySign(params, key);
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'ascii'), Buffer.from(expected, 'ascii'));
}

export interface PurchaseInput {
  pid: string;
  key: string;
  type: string;
  outTradeNo: string;
  name: string;
  /** Two decimals, e.g. "7.30". */
  money: string;
  notifyUrl: string;
  returnUrl: string;
}

/** The form fields the browser posts to the gateway, signed. */
export function epayPurchaseParams(p: PurchaseInput): Record<string, string> {
  const params: Record<string, string> = {
    pid: p.pid,
    type: p.type,
    out_trade_no: p.outTradeNo,
    notify_url: p.notifyUrl,
    return_url: p.returnUrl,
    name: p.name,
    money: p.money,
    device: 'pc',
  };
  return { ...params, sign: epaySign(params, p.key), sign_type: 'MD5' };
}

/** A money string of the callback ("7.3", "7.30") as whole cents, or null when it is not one. */
export function moneyToCents(s: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(s.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
