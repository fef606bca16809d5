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

/** Key-like strings: OpenAI-style `sk-…` keys, Google `AIza…` keys, bearer credentials. */
const KEY_PATTERNS = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
];

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

/** The caller's request headers, credentials replaced. */
export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const v = Array.isArray(value)
      ? value.join(', ')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : v;
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
