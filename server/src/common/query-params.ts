import { fail } from './app-error';
import type { MessageKey } from './i18n/messages';

import type { UnknownObject as Raw } from './json';

/**
 * Readers of list-filter query parameters that refuse, with the area's message (`{field}`, `{reason}`),
 * what would otherwise match nothing or everything: repeated parameters, objects, over-long or
 * control-character text, non-integers.
 */
export function queryReader(message: MessageKey) {
  const invalid = (field: string, reason: string) => fail(message, { field, reason });

  /** One parameter as trimmed text: absent → '', repeated (an array) or an object → refused. */
  const text = (query: Raw, field: string, max: number): string => {
    const v = query[field];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw invalid(field, 'must be given once, as text');
    const s = v.trim();
    if ([...s].length > max) throw invalid(field, `longer than ${max} characters`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(s)) throw invalid(field, 'contains control characters');
    return s;
  };

  /** A non-negative integer parameter up to `max`; absent or empty → 0. */
  const integer = (query: Raw, field: string, max: number): number => {
    const s = text(query, field, 20);
    if (!s) return 0;
    if (!/^\d{1,16}$/.test(s) || Number(s) > max) throw invalid(field, `must be an integer from 0 to ${max}`);
    return Number(s);
  };

  return { text, integer };
}
