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
