import { isMessageKey, Lang, translate } from '../../common/i18n/messages';
import type { AuditText } from './audit-actions';

/** The width of the audit trail's `summary` column. */
const SUMMARY_WIDTH = 255;
/** What a stored summary written as a key starts with; older rows hold plain text. */
const KEYED = '{"key":';

/**
 * The `summary` column of an entry: a summary given as a key and parameters is stored as their JSON
 * (long parameters clipped so it fits the column), plain text as it is.
 */
export function storedSummary(summary: AuditText | string | undefined): string {
  if (summary === undefined) return '';
  if (typeof summary === 'string') return summary.slice(0, SUMMARY_WIDTH);
  for (const width of [Infinity, 48, 16]) {
    const params = Object.fromEntries(
      Object.entries(summary.params).map(([name, value]) => [
        name,
        typeof value === 'string' ? value.slice(0, width) : value,
      ]),
    );
    const json = JSON.stringify({ key: summary.key, params });
    if (json.length <= SUMMARY_WIDTH) return json;
  }
  return JSON.stringify({ key: summary.key, params: {} });
}

/** A stored summary in `lang`: rendered from its key when it has one, else the text as written. */
export function renderSummary(stored: string | null | undefined, lang: Lang): string {
  if (!stored?.startsWith(KEYED)) return stored ?? '';
  try {
    const parsed = JSON.parse(stored) as { key?: unknown; params?: unknown };
    if (!isMessageKey(parsed.key) || !parsed.key.startsWith('audit_summary_')) return stored;
    const params =
      parsed.params && typeof parsed.params === 'object' && !Array.isArray(parsed.params)
        ? (parsed.params as Record<string, unknown>)
        : {};
    return translate(parsed.key, lang, params);
  } catch {
    return stored;
  }
}
