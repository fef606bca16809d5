/**
 * Tencent Cloud API errors, sent with HTTP 200 as {Response: {Error: {Code, Message}, RequestId}}:
 * RelayErrors whose status follows the error code family (AuthFailure 401, unauthorized/in arrears
 * 403, limits 429, parameter errors 400).
 */
import { RelayError } from '../../errors';
import { asObj, isObj, parseJson, str, upstreamErrorMessage } from '../util';
import { sanitizeUpstreamText } from '../../errors';

function statusOf(code: string): number {
  if (code.startsWith('AuthFailure')) return 401;
  if (code.startsWith('UnauthorizedOperation') || code.startsWith('ResourceUnavailable')) return 403;
  if (code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded')) return 429;
  if (
    code.startsWith('InvalidParameter') ||
    code.startsWith('MissingParameter') ||
    code.startsWith('UnknownParameter')
  ) {
    return 400;
  }
  return 500;
}

export function tencentError(code: string, message: string): RelayError {
  const status = statusOf(code);
  return new RelayError(status, null, {}, sanitizeUpstreamText(message || code), code, status !== 400);
}

/** The error of a {Response: {Error}} body (or of a bare {Error} stream event), if it is one. */
export function tencentAnswerError(body: unknown): RelayError | undefined {
  const answer = asObj(body);
  const error = isObj(answer.Response) ? answer.Response.Error : answer.Error;
  if (!isObj(error)) return undefined;
  return tencentError(str(error.Code) ?? 'InternalError', str(error.Message) ?? '');
}

/** {Response: {Error: {Message}}} bodies, then the common shapes. */
export function tencentErrorMessage(status: number, body: string): string {
  const error = tencentAnswerError(parseJson(body.trim()));
  return error ? error.text : upstreamErrorMessage(status, body);
}
