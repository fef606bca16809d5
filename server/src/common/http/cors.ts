import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Cross-origin access for the routes a key authenticates (model traffic, the Midjourney and Suno task
 * relays, the OpenAI billing pair, the key's own usage and logs): any origin may call them, as on new-api, so that browser-hosted clients on
 * other origins (key-balance pages, web chat front ends) work. The key travels in a header the caller
 * sets, never in a cookie, so no credentials are allowed and `*` is the origin. Routes the session
 * cookie authenticates (the rest of /api) stay same-origin: they get no CORS header at all.
 *
 * Applied on Node's request event, ahead of both the relay's raw fast path and Fastify, so every answer
 * of those routes carries the header (streams and errors included) and preflights never reach a router.
 */
const PREFIXES = ['/v1/', '/v1beta/', '/dashboard/billing/', '/mj/', '/suno/'];
const EXACT = new Set(['/v1', '/v1beta', '/api/usage/token', '/api/log/token']);
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Offered when a preflight names no headers, or names them in a form not safe to echo. */
const DEFAULT_HEADERS =
  'Authorization, Content-Type, X-Api-Key, Anthropic-Version, Anthropic-Beta, X-Goog-Api-Key, OpenAI-Organization, OpenAI-Project';
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;
/** Browsers may keep a preflight's answer this long (Chromium caps it at 2 hours). */
const MAX_AGE_SECONDS = '7200';
/** What a cross-origin script may read besides the safelisted response headers. */
const EXPOSED = 'X-Oneapi-Request-Id, Retry-After';

export function isKeyAuthenticatedPath(url: string): boolean {
  const q = url.indexOf('?');
  let path = q >= 0 ? url.slice(0, q) : url;
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '');
  return EXACT.has(path) || PREFIXES.some((p) => path.startsWith(p));
}

/**
 * Sets the CORS headers on the answer of a key-authenticated route and answers its preflight.
 * Returns true when the request is answered here (an OPTIONS preflight), false to carry on.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isKeyAuthenticatedPath(req.url ?? '/')) return false;
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') {
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    return false;
  }
  const asked = req.headers['access-control-request-headers'];
  const headers =
    typeof asked === 'string' && HEADER_LIST.test(asked.trim()) ? asked.trim() : DEFAULT_HEADERS;
  res.writeHead(204, {
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': headers,
    'Access-Control-Max-Age': MAX_AGE_SECONDS,
    Vary: 'Access-Control-Request-Headers',
    'Content-Length': '0',
  });
  // A preflight has no body; anything sent with it is drained, never held.
  req.resume();
  res.end();
  return true;
}
