/**
 * Zhipu v3 errors come with HTTP 200 as {code, msg, success: false}; they become RelayErrors with a
 * status matching the failure (authentication 401, arrears 403, rate limits 429, content 400).
 */
import { RelayError } from '../../errors';
import { isObj, num, str } from '../util';
import { sanitizeUpstreamText } from '../../errors';

function statusOf(code: number): number {
  if (code >= 1000 && code <= 1004) return 401;
  if (code === 1113) return 403;
  if (code === 1302 || code === 1303 || code === 1305) return 429;
  if (code === 1261 || code === 1301 || (code >= 1210 && code <= 1214)) return 400;
  return 500;
}

export function zhipuError(code: number, message: string): RelayError {
  const status = statusOf(code);
  const retryable = status !== 400;
  return new RelayError(
    status,
    null,
    {},
    sanitizeUpstreamText(message || `Zhipu error ${code}`),
    String(code),
    retryable,
  );
}

/** The error a Zhipu answer reports, if any ({code != 200} or {success: false}). */
export function zhipuAnswerError(body: unknown): RelayError | undefined {
  if (!isObj(body)) return undefined;
  const code = num(body.code);
  if ((code === undefined || code === 200) && body.success !== false) return undefined;
  return zhipuError(code ?? 500, str(body.msg) ?? '');
}
