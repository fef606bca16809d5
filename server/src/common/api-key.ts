import type { IncomingHttpHeaders } from 'node:http';

/** A subprotocol that carries the key of a browser WebSocket client (which cannot set headers). */
export const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

/** The key as the caller sent it, from the headers every client family uses. */
export interface KeySources {
  headers: IncomingHttpHeaders;
  /** `?key=` (Gemini clients); null where the route does not accept it. */
  query?: URLSearchParams | null;
  /** Offered WebSocket subprotocols (realtime upgrades). */
  protocols?: readonly string[];
}

function header(h: IncomingHttpHeaders, name: string): string {
  const v = h[name];
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * The API key of a model-traffic call: `Authorization` (Bearer optional), `x-api-key` (Anthropic),
 * `x-goog-api-key` (Gemini), `mj-api-secret` (Midjourney-proxy clients), a realtime subprotocol, or
 * `?key=`. Null when none is present.
 */
export function keyFromRequest({ headers, query, protocols }: KeySources): string | null {
  const auth = header(headers, 'authorization')
    .replace(/^Bearer\s+/i, '')
    .trim();
  if (auth) return auth;
  for (const name of ['x-api-key', 'x-goog-api-key', 'mj-api-secret']) {
    const v = header(headers, name);
    if (v) return v;
  }
  const proto = protocols?.find((p) => p.startsWith(KEY_PROTOCOL_PREFIX));
  if (proto && proto.length > KEY_PROTOCOL_PREFIX.length) return proto.slice(KEY_PROTOCOL_PREFIX.length);
  return query?.get('key') || null;
}

/** A key split into its secret (no `sk-`) and the channel an admin pinned with `sk-<key>-<id>`. */
export interface ParsedKey {
  secret: string;
  pinnedChannel: number | null;
}

/** Parses a key as sent; null when it cannot be one of ours (too short, too long, bad pin suffix). */
export function parseApiKey(raw: string | null): ParsedKey | null {
  let key = (raw ?? '').trim();
  if (key.startsWith('sk-')) key = key.slice(3);
  let pinnedChannel: number | null = null;
  const dash = key.indexOf('-');
  if (dash > 0) {
    const suffix = key.slice(dash + 1);
    if (!/^\d{1,9}$/.test(suffix)) return null;
    pinnedChannel = Number(suffix);
    key = key.slice(0, dash);
  }
  if (key.length < 16 || key.length > 128) return null;
  return { secret: key, pinnedChannel };
}

/** The secret a key is stored and looked up by: the key without its `sk-` prefix. */
export function keySecret(key: string): string {
  return key.startsWith('sk-') ? key.slice(3) : key;
}

/** The keyed hash tokens are stored and looked up by (`hash` is the crypto service's keyed hash). */
export function hashApiKey(key: string, hash: (s: string) => string): string {
  return hash(keySecret(key));
}
