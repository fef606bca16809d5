import type { IncomingHttpHeaders } from 'node:http';

/** Lists of header names from the options, as request headers are keyed; made once per list value. */
const lookupNames = new WeakMap<readonly unknown[], string[]>();

/**
 * The names of an option's header list as Node keys a request's headers: trimmed, lower case, empty
 * ones and non-strings left out. An option's parsed value stays the same array until the option
 * changes, so the names are made once per value rather than once per request.
 */
export function headerNames(list: readonly unknown[]): string[] {
  let names = lookupNames.get(list);
  if (names === undefined) {
    names = [];
    for (const n of list) {
      const name = typeof n === 'string' ? n.trim().toLowerCase() : '';
      if (name) names.push(name);
    }
    lookupNames.set(list, names);
  }
  return names;
}

/** A request header's first value, trimmed; null when absent or blank. `name` is in lower case. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (typeof s !== 'string') return null;
  const t = s.trim();
  return t ? t : null;
}
