/**
 * Baidu legacy errors, sent with HTTP 200 as {error_code, error_msg}: RelayErrors whose status follows
 * the code (token invalid/expired 401, no permission 403, limits 429, request errors 400).
 */
import { RelayError } from '../../errors';
import { isObj, num, str } from '../util';
import { sanitizeUpstreamText } from '../../errors';

const RATE_LIMITS = new Set([4, 17, 18, 19, 336501, 336502]);

function statusOf(code: number): number {
  if (code === 110 || code === 111 || code === 14) return 401;
  if (code === 6) return 403;
  if (RATE_LIMITS.has(code)) return 429;
  if (code > 336000 && code < 336200) return 400;
  return 500;
}

export function baiduError(code: number, message: string): RelayError {
  const status = statusOf(code);
  return new RelayError(
    status,
    null,
    {},
    sanitizeUpstreamText(message || `Baidu error ${code}`),
    String(code),
    status !== 400,
  );
}

/** The {error_code, error_msg} of an answer or stream event, if it is one. */
export function baiduAnswerError(body: unknown): RelayError | undefined {
  if (!isObj(body)) return undefined;
  const code = num(body.error_code);
  return code === undefined || code === 0 ? undefined : baiduError(code, str(body.error_msg) ?? '');
}
