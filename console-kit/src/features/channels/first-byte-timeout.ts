/**
 * The channel's first-byte timeout, kept in its extra settings JSON as `first_byte_timeout`
 * (seconds): an upstream that has not started its answer by then is left for the next channel.
 */

export const FIRST_BYTE_KEY = 'first_byte_timeout';
/** The longest first-byte wait the form takes, in seconds. */
export const FIRST_BYTE_MAX = 600;

function settingObject(setting: string): Record<string, unknown> | null {
  if (setting.trim() === '') return {};
  try {
    const value = JSON.parse(setting) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The timeout shown in the form ('' when unset), or null when the setting is not a JSON object. */
export function readFirstByteTimeout(setting: string): string | null {
  const object = settingObject(setting);
  if (object === null) return null;
  const value = object[FIRST_BYTE_KEY];
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
}

/** What is wrong with the text typed: not a number of seconds, or beyond the maximum. */
export function firstByteProblem(text: string): 'notNumber' | 'tooLong' | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return 'notNumber';
  return Number(trimmed) > FIRST_BYTE_MAX ? 'tooLong' : null;
}

/**
 * The setting with the timeout set to `text` (a valid number of seconds), or removed for '' and 0;
 * the other settings are kept. An empty object becomes ''.
 */
export function writeFirstByteTimeout(setting: string, text: string): string {
  const object = { ...(settingObject(setting) ?? {}) };
  const seconds = Number(text.trim());
  if (text.trim() === '' || seconds === 0) delete object[FIRST_BYTE_KEY];
  else object[FIRST_BYTE_KEY] = seconds;
  return Object.keys(object).length === 0 ? '' : JSON.stringify(object, null, 2);
}
