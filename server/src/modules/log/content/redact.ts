import { JSONPath } from 'jsonpath-plus';

export { normalizePath, parsePaths, pathProblem } from '../../../common/redact-paths';

export const REDACTED = '[REDACTED]';

/** Request headers never stored as sent (credentials of the caller and of its session). */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

/**
 * Key-like strings: OpenAI-style `sk-…` keys, Google `AIza…` keys, bearer credentials, and the key a
 * browser's realtime client sends as the sub-protocol `openai-insecure-api-key.<key>` (whatever its form).
 */
const KEY_PATTERNS = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(openai-insecure-api-key\.)[^\s,;"'\\]+/gi,
];

/** Shortest part of a secret that is replaced on its own (shorter parts would hit ordinary text). */
const MIN_PART = 16;

/**
 * Every form a secret can be written in: as given, with and without its `sk-` prefix (the relay
 * accepts both), without a `-<channel>` pin, and each long part of a compound channel key (`id|secret`,
 * `app:key:secret`). Longest first, so a longer form is replaced whole before a part of it.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of secrets) {
    const s = raw?.trim();
    if (!s) continue;
    out.add(s);
    const bare = s.startsWith('sk-') ? s.slice(3) : s;
    const pinned = /^(.{16,})-\d{1,9}$/.exec(bare);
    for (const form of pinned ? [bare, pinned[1]] : [bare]) out.add(form).add(`sk-${form}`);
    // A JSON credential (a service account) is replaced whole only: its parts are ordinary words.
    if (!s.startsWith('{'))
      for (const part of s.split(/[|:,\s]+/)) if (part.length >= MIN_PART) out.add(part);
  }
  return [...out].filter((x) => x.length >= 8).sort((a, b) => b.length - a.length);
}

/** Replaces, in place, every value the paths select. */
export function redactPaths(json: unknown, paths: readonly string[]): void {
  if (typeof json !== 'object' || json === null) return;
  for (const path of paths) {
    try {
      JSONPath({
        path,
        json,
        eval: false,
        resultType: 'all',
        callback: (r: { parent: Record<string, unknown> | null; parentProperty: string | number | null }) => {
          if (r.parent && r.parentProperty !== null) r.parent[r.parentProperty as string] = REDACTED;
        },
      });
    } catch {
      // a path the option check let through but this document cannot use: nothing to redact
    }
  }
}

/** Replaces the given secrets and anything shaped like an API key in a text. */
export function redactKeys(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 8) out = out.split(s).join(REDACTED);
  for (const re of KEY_PATTERNS)
    out = out.replace(re, (_m, bearer?: string) => (typeof bearer === 'string' ? bearer : '') + REDACTED);
  return out;
}

/**
 * The caller's request headers, credentials replaced: the credential headers whole, and in every other
 * value the given secrets and anything key-shaped (a key sent in a header of any name, the realtime
 * sub-protocol).
 */
export function redactHeaders(
  headers: Record<string, unknown> | undefined,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const v = Array.isArray(value)
      ? value.join(', ')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : redactKeys(v, secrets);
  }
  return out;
}

/** A text cut to at most `max` UTF-8 bytes (never inside a character); whether it was cut. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max / 3 || Buffer.byteLength(text) <= max) return { text, truncated: false };
  let cut = Buffer.from(text).subarray(0, max).toString('utf8');
  // A character split by the cut decodes as U+FFFD at the end: drop it.
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return { text: cut, truncated: true };
}
