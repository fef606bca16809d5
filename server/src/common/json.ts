/**
 * One vocabulary for loosely typed JSON (request bodies, stored JSON text, upstream answers): the value
 * types and the narrowing helpers every module uses instead of its own copies.
 */

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object whose values are not checked yet (a parsed body, a query, a stored JSON column). */
export type UnknownObject = Record<string, unknown>;

/** An object that is not an array (null, arrays and primitives are not). */
export function isObject(value: unknown): value is UnknownObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object itself, or an empty object for anything else. */
export function asObject(value: unknown): UnknownObject {
  return isObject(value) ? value : {};
}

/** The string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** JSON.parse that never throws: undefined for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
