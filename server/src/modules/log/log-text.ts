import { isMessageKey, Lang, MessageKey, translate } from '../../common/i18n/messages';

/**
 * A log's text as a message key plus its parameters, so every reader gets it in their own language.
 * Parameters are plain values (names, ids, amounts already formatted as people read them).
 */
export interface LogText {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** The key inside a log row's `other` JSON that holds its {@link LogText}. */
export const LOG_TEXT_FIELD = 'content_i18n';

/** The language the `content` column is written in, for readers that do not render the key. */
const STORED_LANG: Lang = 'zh';

/**
 * The `content` and `other` columns of a row whose text is `text`: `content` carries the text rendered
 * in Chinese (what older readers and content searches see), `other` the key and parameters.
 * Writers outside this module (the relay's settlement, say) use it to fill their own rows.
 */
export function logTextColumns(
  text: LogText,
  other?: Record<string, unknown>,
): { content: string; other: Record<string, unknown> } {
  return {
    content: translate(text.key, STORED_LANG, text.params),
    other: { ...(other ?? {}), [LOG_TEXT_FIELD]: { key: text.key, params: text.params ?? {} } },
  };
}

function parseObject(other: string | null | undefined): Record<string, unknown> | null {
  if (!other) return null;
  try {
    const parsed: unknown = JSON.parse(other);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * What a consume-log row holds while its call or task still runs (the billing ledger's marker, which
 * its recovery looks for); readers see it as words of their language.
 */
const IN_PROGRESS_CONTENT = 'in progress';

/** The row's text in `lang`: rendered from its key when it has one, else the stored text as written. */
export function renderLogContent(
  content: string | null | undefined,
  other: string | null | undefined,
  lang: Lang,
): string {
  const text = parseObject(other)?.[LOG_TEXT_FIELD] as { key?: unknown; params?: unknown } | undefined;
  if (text && isMessageKey(text.key)) {
    const params =
      text.params && typeof text.params === 'object' ? (text.params as Record<string, unknown>) : {};
    return translate(text.key, lang, params);
  }
  if (content === IN_PROGRESS_CONTENT) return translate('log_text_in_progress', lang);
  return content ?? '';
}

/** `other` without the text's key (it is shown as the content already); "" stays "". */
export function withoutLogText(other: string | null | undefined): string {
  const parsed = parseObject(other);
  if (!parsed || !(LOG_TEXT_FIELD in parsed)) return other ?? '';
  const { [LOG_TEXT_FIELD]: _text, ...rest } = parsed;
  return Object.keys(rest).length ? JSON.stringify(rest) : '';
}
