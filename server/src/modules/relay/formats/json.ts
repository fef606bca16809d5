/**
 * Small narrowing helpers for loosely typed JSON bodies. Bodies come from JSON.parse, so an object
 * that is not an array is a JsonObject and an array is a Json[].
 */
import { num, parseJson, str } from '../../../common/json';
import type { Json } from '../types';

export { num, parseJson, str };

/**
 * A JSON object whose values are all defined: what the converters build. It is assignable both to
 * JsonObject and to Json, so built objects nest freely.
 */
export type JsonMap = { [key: string]: Json };

export function isObject(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isArray(value: unknown): value is Json[] {
  return Array.isArray(value);
}

/** The object itself, or an empty object for anything else. */
export function asObject(value: unknown): JsonMap {
  return isObject(value) ? value : {};
}

/** The objects of an array (non-objects skipped), or [] when `value` is not an array. */
export function objects(value: unknown): JsonMap[] {
  return isArray(value) ? value.filter(isObject) : [];
}

/** Text of an OpenAI message content: the string itself or its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((part) => str(part.text) ?? '')
    .join('');
}

/** Tool call arguments (a JSON string, or already an object) as an object; {} when unparseable. */
export function argumentsObject(args: unknown): JsonMap {
  if (isObject(args)) return args;
  return asObject(typeof args === 'string' ? parseJson(args) : undefined);
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * `text.indexOf(pattern, from)`, searched for by the pattern's tail from `skip` on. JSON keys begin with
 * a quote, and JSON text is full of quotes: on this V8 a search for such a key tries every quote it
 * passes, and costs 4–7 times what a search starting on a rarer letter does (about 150 against 20–40 ns
 * for `"usage"` or `"error"` in a 225-character stream chunk, measured alone). The relay runs such
 * searches on every streamed event and over every complete answer it passes on.
 */
export function finder(pattern: string, skip: number): (text: string, from?: number) => number {
  const tail = pattern.slice(skip);
  return (text, from = 0) => {
    for (let at = text.indexOf(tail, from + skip); at >= 0; at = text.indexOf(tail, at + 1))
      if (text.startsWith(pattern, at - skip)) return at - skip;
    return -1;
  };
}
export const usageKeyAt = finder('"usage"', 1);
export const errorKeyAt = finder('"error"', 2);
const modelKeyAt = finder('"model"', 1);

/**
 * A JSON object's text or bytes with its `"model"` member's string value replaced, nothing else touched
 * (a body or an answer passed on without serialising it again); null unless `"model"` occurs exactly
 * once, with a string value. That one is the object's top-level key: inside a string its quotes would be
 * escaped, and a key can only be written otherwise with `\u006…` escapes of its letters (text holding
 * those is left to the serialiser).
 */
export function withModelName<T extends string | Buffer>(json: T, model: string): T | null {
  const at = typeof json === 'string' ? (i: number) => json.charCodeAt(i) : (i: number) => json[i];
  const find = (from: number) =>
    typeof json === 'string' ? modelKeyAt(json, from) : json.indexOf('"model"', from);
  const key = find(0);
  if (key < 0 || find(key + 7) >= 0 || json.indexOf('\\u006') >= 0) return null;
  let i = key + 7;
  while (isSpace(at(i))) i++;
  if (at(i++) !== 0x3a) return null;
  while (isSpace(at(i))) i++;
  if (at(i) !== 0x22) return null;
  const start = i;
  for (i++; i < json.length; i++) {
    const c = at(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) {
      const name = JSON.stringify(model);
      if (typeof json !== 'string')
        return Buffer.concat([json.subarray(0, start), Buffer.from(name), json.subarray(i + 1)]) as T;
      // The name is there already, spelled the same (an upstream that echoes the caller's model): the
      // text itself, not a copy of it in three pieces.
      if (i + 1 - start === name.length && json.startsWith(name, start)) return json;
      return (json.slice(0, start) + name + json.slice(i + 1)) as T;
    }
  }
  return null;
}

/**
 * An OpenAI `chat.completion.chunk`: id, time and model, then `choices` (and `usage` when given). One
 * literal, not `{ ...base, choices }`: on this V8 every key added after a spread takes the runtime's slow
 * path (the converters build one per streamed event).
 */
export function openAIChunk(
  id: string,
  created: number,
  model: string,
  choices: JsonMap[],
  usage?: JsonMap,
): JsonMap {
  const chunk: JsonMap = { id, object: 'chat.completion.chunk', created, model, choices };
  if (usage !== undefined) chunk.usage = usage;
  return chunk;
}

/**
 * A shallow copy of a JSON object that stays fast when keys are added to it. On this V8 an object
 * made by spreading (`{ ...o }`) turns into a slow dictionary the first time a key it lacks is added
 * (about 0.4 µs, measured alone; the relay adds `stream_options` and channel overrides to a copy of
 * every request body); a copy made key by key does not. Own `__proto__` keys (JSON.parse makes them)
 * are defined, as a spread would copy them, never assigned: the copy's prototype stays Object's.
 */
export function copyObject<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) {
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
    else out[k] = o[k];
  }
  return out as T;
}
