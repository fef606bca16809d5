/**
 * Spark answer frames with header.code != 0 become RelayErrors: content audit and request errors 400,
 * authorization 403, quota and rate limits 429, the rest 500.
 */
import { RelayError, sanitizeUpstreamText } from '../../errors';

const BAD_REQUEST = new Set([10013, 10014, 10019, 10163, 10907]);
const LIMITS = new Set([11201, 11202, 11203, 10007]);

function statusOf(code: number): number {
  if (BAD_REQUEST.has(code)) return 400;
  if (code === 11200) return 403;
  if (LIMITS.has(code)) return 429;
  return 500;
}

export function sparkError(code: number, message: string): RelayError {
  const status = statusOf(code);
  return new RelayError(
    status,
    null,
    {},
    sanitizeUpstreamText(message || `Spark error ${code}`),
    String(code),
    status !== 400,
  );
}
