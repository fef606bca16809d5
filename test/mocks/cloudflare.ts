/**
 * Cloudflare Workers AI through its OpenAI-compatible endpoints,
 * /client/v4/accounts/{account id}/ai/v1/{chat/completions|completions|embeddings|responses}: OpenAI
 * answers and streams, Cloudflare's API v4 envelope for errors
 * (`{"result": null, "success": false, "errors": [{"code", "message"}], "messages": []}`).
 */
import { defaultErrorMessage, ErrorWriter } from './exchange';

const CODES: Record<number, number> = {
  400: 5006,
  401: 10000,
  403: 10000,
  404: 7000,
  429: 3036,
  500: 3043,
  503: 3040,
};

export const cloudflareError: ErrorWriter = (ex, status, message) => {
  const code = CODES[status] ?? (status >= 500 ? 3043 : 5006);
  const text =
    message ?? (status === 401 || status === 403 ? 'Authentication error' : defaultErrorMessage(status));
  ex.json(status, { result: null, success: false, errors: [{ code, message: text }], messages: [] });
};

const PATH = /^\/client\/v4\/accounts\/([^/]+)\/ai\/v1\/(.+)$/;

/** Account ids are 32 lowercase hex digits. */
const ACCOUNT_ID = /^[0-9a-f]{32}$/;

/**
 * The OpenAI endpoint (path below /v1/) of a Workers AI URL, or a routing error message when the
 * account id is malformed; null for other paths.
 */
export function cloudflareEndpoint(path: string): { rest: string } | { error: string } | null {
  const match = PATH.exec(path);
  if (!match) return null;
  if (!ACCOUNT_ID.test(decodeURIComponent(match[1]))) {
    return { error: `Could not route to ${path}, perhaps your object identifier is invalid?` };
  }
  return { rest: match[2] };
}
