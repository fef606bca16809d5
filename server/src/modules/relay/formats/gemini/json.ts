/** The shared narrowing helpers, plus Gemini's camelCase/snake_case field lookup. */
import type { Json, JsonObject } from '../../types';

import { asObject, isObject, JsonMap, objects, parseJson, str } from '../json';

export * from '../json';

/**
 * A Gemini field by its camelCase name, falling back to the snake_case spelling (the REST API
 * accepts both and Google's curl samples use snake_case: system_instruction, inline_data...).
 */
export function pick(o: JsonObject, camel: string): Json | undefined {
  const value = o[camel];
  if (value !== undefined) return value;
  return o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
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
