/** Small narrowing helpers and the stop-reason tables shared by the Anthropic ⇄ OpenAI converters. */
import type { Json, JsonObject } from '../../types';

/** A JSON object nested inside another (no undefined members, so it is assignable to Json). */
export type JsonMap = { [key: string]: Json };

export function isObject(x: unknown): x is JsonObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function asObject(x: unknown): JsonObject {
  return isObject(x) ? x : {};
}

export function asArray(x: unknown): Json[] {
  return Array.isArray(x) ? (x as Json[]) : [];
}

/**
 * Ids across the Anthropic ⇄ OpenAI boundary, in the form of the side they reach: tool ids `toolu_…` ⇄
 * `call_…`, message ids `msg_…` ⇄ `chatcmpl-…`. A prefix swap, so a tool id the caller sends back
 * (in a tool call and its result alike) becomes the channel's own id again.
 */
export function openAIToolId(id: string): string {
  return id.startsWith('toolu_') ? `call_${id.slice(6)}` : id;
}
export function anthropicToolId(id: string): string {
  return id.startsWith('call_') ? `toolu_${id.slice(5)}` : id;
}
export function openAIMessageId(id: string): string {
  return id.startsWith('msg_') ? `chatcmpl-${id.slice(4)}` : id;
}
export function anthropicMessageId(id: string): string {
  return id.startsWith('chatcmpl-') ? `msg_${id.slice(9)}` : id;
}

export function asString(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

export function asNumber(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

/** Drops undefined members so the object can be nested in another JSON value. */
export function compact(obj: JsonObject): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(obj)) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Parses a tool call's arguments string; anything that is not a JSON object becomes {}. */
export function parseArguments(x: unknown): JsonMap {
  if (isObject(x)) return compact(x);
  if (typeof x !== 'string' || x.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(x);
    return isObject(parsed) ? compact(parsed) : {};
  } catch {
    return {};
  }
}

/** Anthropic stop_reason → OpenAI finish_reason. */
export function toFinishReason(stopReason: unknown): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** OpenAI finish_reason → Anthropic stop_reason. */
export function toStopReason(finishReason: unknown): string {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
