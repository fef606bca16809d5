/**
 * Deepest nesting of arrays and objects accepted in a JSON request body. Real payloads stay far below
 * it (a chat request with tool schemas nests about 10 levels); a body nested thousands of levels deep
 * exists only to exhaust the stack of whatever walks it recursively (validation, serializers, logs).
 */
export const MAX_JSON_DEPTH = 128;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when the JSON text nests arrays and objects deeper than `limit`. One pass over the raw text or
 * bytes, before parsing, without recursion and without allocating: brackets inside strings do not
 * count. It does not validate the JSON (the parser does that afterwards); it only bounds how deep a
 * later recursive walk could go. Bytes are scanned as they are: in UTF-8 every byte of a multi-byte
 * character is ≥ 0x80, so none is mistaken for a bracket or a quote.
 */
export function jsonTooDeep(json: string | Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  const text = typeof json === 'string';
  const length = json.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = text ? json.charCodeAt(i) : json[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
