/**
 * Checks of the coding-agent options before they are saved: the forwarded client headers, the
 * reasoning model prefixes and the channel affinity rules. Each returns the problem as a message key
 * (below `agentValidation.` of the settings namespace) with its values, or null; text that is not
 * JSON at all is left to the panel's own JSON check.
 */

export interface AgentProblem {
  key: string;
  values?: Record<string, string | number>;
}

/** Headers the gateway always sets itself; the relay never forwards them whatever the list says. */
export const NEVER_FORWARDED = [
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'proxy-authorization',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
];

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const AFFINITY_KEYS = ['model', 'format', 'mode', 'path', 'header', 'json'];

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A JSON list of non-empty names (model prefixes). */
export function nameListProblem(text: string): AgentProblem | null {
  const parsed = parse(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return null;
  const bad = parsed.value.findIndex((v) => typeof v !== 'string' || v.trim() === '');
  return bad < 0 ? null : { key: 'nameList', values: { index: bad + 1 } };
}

/**
 * A JSON list of header names; for headers to forward (`forwarded`), none of them a credential or
 * transport header.
 */
export function headerListProblem(text: string, forwarded = true): AgentProblem | null {
  const parsed = parse(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return null;
  for (const [i, v] of parsed.value.entries()) {
    if (typeof v !== 'string' || !HEADER_NAME.test(v.trim()))
      return { key: 'headerName', values: { index: i + 1 } };
    if (forwarded && NEVER_FORWARDED.includes(v.trim().toLowerCase()))
      return { key: 'headerNever', values: { name: v.trim() } };
  }
  return null;
}

/**
 * A JSON list of affinity rules: each an object naming where the session key is (`header` or `json`),
 * optionally narrowed by `model` (a regular expression), `format`, `mode` and `path`, all strings.
 */
export function affinityRulesProblem(text: string): AgentProblem | null {
  const parsed = parse(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return null;
  for (const [i, rule] of parsed.value.entries()) {
    const index = i + 1;
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
      return { key: 'ruleNotObject', values: { index } };
    const r = rule as Record<string, unknown>;
    const unknown = Object.keys(r).find((k) => !AFFINITY_KEYS.includes(k));
    if (unknown !== undefined) return { key: 'ruleUnknownKey', values: { index, name: unknown } };
    const notString = Object.keys(r).find((k) => typeof r[k] !== 'string');
    if (notString !== undefined) return { key: 'ruleNotString', values: { index, name: notString } };
    if (r.header === undefined && r.json === undefined) return { key: 'ruleNoKey', values: { index } };
    if (typeof r.model === 'string') {
      try {
        new RegExp(r.model);
      } catch {
        return { key: 'ruleBadModel', values: { index } };
      }
    }
  }
  return null;
}
