import { isObject } from '../common/json';
import { OPTION_INDEX, OptionDef, validateOptionValue } from '../modules/option';

/** Settings whose key differs here (one-api's OIDC keys, older sign-in names). */
export const RENAMED_OPTIONS: Record<string, string> = {
  OidcEnabled: 'oidc.enabled',
  OidcClientId: 'oidc.client_id',
  OidcClientSecret: 'oidc.client_secret',
  OidcWellKnown: 'oidc.well_known',
  OidcAuthorizationEndpoint: 'oidc.authorization_endpoint',
  OidcTokenEndpoint: 'oidc.token_endpoint',
  OidcUserinfoEndpoint: 'oidc.user_info_endpoint',
  DocsLink: 'general_setting.docs_link',
  GitHubClientID: 'GitHubClientId',
};

/** Older single chat links, folded into the `Chats` list. */
const CHAT_LINKS = ['ChatLink', 'ChatLink2'];

export type OptionOutcome =
  | { kind: 'set'; key: string; value: string; def: OptionDef; changed?: string }
  | { kind: 'skip'; reason: string };

/** Tries the forms older versions stored: "1"/"0" booleans, numbers as text inside JSON maps, "5.0" integers. */
function normalise(def: OptionDef, raw: string): { value: string; changed: string } | { problem: string } {
  const first = validateOptionValue(def, raw);
  const reason = (r: ReturnType<typeof validateOptionValue>) =>
    'problem' in r
      ? typeof r.problem.params?.reason === 'string'
        ? r.problem.params.reason
        : r.problem.key
      : '';
  if (!('problem' in first)) return { value: first.value, changed: '' };
  const s = raw.trim();
  let candidate: string | null = null;
  let changed = '';
  if (def.kind === 'bool') {
    const l = s.toLowerCase();
    if (['1', 'yes', 'on', 'true'].includes(l)) candidate = 'true';
    else if (['0', 'no', 'off', 'false', ''].includes(l)) candidate = 'false';
    changed = `"${s}" read as ${candidate}`;
  } else if (def.kind === 'int' && /^-?\d+(\.\d+)?$/.test(s)) {
    candidate = String(Math.round(Number(s)));
    changed = `"${s}" rounded to ${candidate}`;
  } else if (def.kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      return { problem: 'not valid JSON' };
    }
    if (isObject(parsed)) {
      const fixed: Record<string, unknown> = {};
      const dropped: string[] = [];
      let coerced = false;
      for (const [k, v] of Object.entries(parsed)) {
        let value = v;
        if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim())) {
          value = Number(v);
          coerced = true;
        }
        // Entries this product refuses (a zero fixed price, a negative ratio) are left out one by one.
        if ('problem' in validateOptionValue(def, JSON.stringify({ [k]: value }))) dropped.push(k);
        else fixed[k] = value;
      }
      candidate = JSON.stringify(fixed);
      changed = [
        coerced ? 'numbers written as text read as numbers' : '',
        dropped.length ? `entries left out: ${dropped.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
    }
  }
  if (candidate === null) return { problem: reason(first) };
  const second = validateOptionValue(def, candidate);
  if ('problem' in second) return { problem: reason(second) };
  return { value: second.value, changed };
}

/** Maps every source option to a setting here, or says why it is left behind. */
export function mapOptions(source: Array<{ key: string; value: string | null }>): Map<string, OptionOutcome> {
  const out = new Map<string, OptionOutcome>();
  const byKey = new Map(source.map((o) => [o.key, o.value ?? '']));
  for (const { key, value } of source) {
    if (CHAT_LINKS.includes(key)) continue;
    const target = RENAMED_OPTIONS[key] ?? key;
    const def = OPTION_INDEX.get(target);
    if (!def) {
      out.set(key, { kind: 'skip', reason: 'no such setting here' });
      continue;
    }
    // The current name wins over an older one present in the same database.
    if (target !== key && byKey.has(target)) {
      out.set(key, { kind: 'skip', reason: `superseded by ${target}` });
      continue;
    }
    const raw = value ?? '';
    if (def.secret && raw === '') {
      out.set(key, { kind: 'skip', reason: 'empty secret' });
      continue;
    }
    const n = normalise(def, raw);
    if ('problem' in n) out.set(key, { kind: 'skip', reason: `cannot be placed: ${n.problem}` });
    else
      out.set(key, {
        kind: 'set',
        key: target,
        value: n.value,
        def,
        changed:
          [target !== key ? `stored as ${target}` : '', n.changed].filter(Boolean).join('; ') || undefined,
      });
  }
  const links = CHAT_LINKS.filter((k) => (byKey.get(k) ?? '').trim());
  if (links.length && !byKey.has('Chats')) {
    const def = OPTION_INDEX.get('Chats')!;
    const value = JSON.stringify(links.map((k) => ({ [k]: byKey.get(k)!.trim() })));
    for (const k of links)
      out.set(k, { kind: 'set', key: 'Chats', value, def, changed: 'folded into the Chats list' });
  } else
    for (const k of CHAT_LINKS)
      if (byKey.has(k)) out.set(k, { kind: 'skip', reason: links.length ? 'superseded by Chats' : 'empty' });
  return out;
}
