/**
 * Tiny helpers shared by the provider adapters: narrowing of parsed JSON, URL joining, upstream error
 * text extraction and builders of OpenAI chat-completion chunks for adapters that convert a private
 * format to the hub themselves. Everything here is pure.
 */
import {
  asObject as asObj,
  isObject as isObj,
  num,
  parseJson,
  str,
  type UnknownObject,
} from '../../../common/json';
import { sanitizeUpstreamText } from '../errors';
import { openAIChunk, type JsonMap } from '../formats/json';
import type { Json, JsonObject, RelayMode, SseEvent } from '../types';

/** A parsed JSON object whose fields have not been checked yet (the common JSON vocabulary's). */
export type Obj = UnknownObject;

/** A JSON object without undefined fields (assignable both to `Json` and to `JsonObject`). */
export type JsonRecord = { [key: string]: Json };

/** Modes whose request body is the client's multipart form, forwarded by relay.service as is. */
export const MULTIPART_MODES: ReadonlySet<RelayMode> = new Set<RelayMode>([
  'transcriptions',
  'translations',
  'image-edits',
]);

export { isObj, asObj, str, num, parseJson };

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/**
 * Values read out of a parsed JSON body are JSON by construction; this is the one place that says so
 * to the compiler. `undefined` stays `undefined` (JSON.stringify drops such keys).
 */
export function json(value: unknown): Json | undefined {
  return value as Json | undefined;
}

/** A copy of `obj` typed as a JSON object (see `json`). */
export function jsonObject(obj: Obj): JsonObject {
  return obj as JsonObject;
}

/** Copies the defined fields of `fields` into a new JSON object. */
export function compact(fields: Obj): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value as Json;
  return out;
}

/**
 * A channel's auth headers plus the JSON content type. Copied key by key, not `{ ...auth, key: value }`:
 * on this V8 every key added after a spread takes the runtime's slow path (about 0.7 µs each).
 */
export function jsonHeaders(auth: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const k in auth) headers[k] = auth[k];
  headers['Content-Type'] = 'application/json';
  return headers;
}

/** `base` (trailing slashes dropped) + `path`. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

/** The text of an OpenAI message content: a string, or the text parts of a part list joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => (isObj(part) && part.type === 'text' ? (str(part.text) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The media type and base64 payload of a `data:` URL, or null for any other URL. */
export function parseDataUrl(url: string): { mimeType: string; data: string } | null {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return match ? { mimeType: match[1], data: match[2] } : null;
}

/** The `stop` parameter of an OpenAI request as a list. */
export function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return [stop];
  const list = arr(stop).filter((s): s is string => typeof s === 'string');
  return list.length > 0 ? list : undefined;
}

// ---- upstream error bodies ----

const MAX_ERROR_LENGTH = 500;

function truncate(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

function messageOfJson(body: unknown): string | undefined {
  if (Array.isArray(body)) return messageOfJson(body[0]);
  if (!isObj(body)) return undefined;
  const error = body.error;
  if (isObj(error)) {
    const message = str(error.message) ?? str(error.msg);
    if (message) return message;
  }
  if (typeof error === 'string' && error !== '') return error;
  const firstError = arr(body.errors)[0];
  if (isObj(firstError) && str(firstError.message)) return str(firstError.message);
  return str(body.message) ?? str(body.msg) ?? str(body.detail) ?? str(body.error_msg);
}

/**
 * Readable message of an upstream error body. Understands {"error":{"message"}} (OpenAI, Anthropic,
 * Gemini, Azure), {"error":"..."}, {"message"} / {"msg"} / {"detail"}, {"errors":[{"message"}]}
 * (Cloudflare) and a list of those (Gemini streams); anything else is shown as text. Always scrubbed
 * of URLs and keys and cut to 500 characters.
 */
export function upstreamErrorMessage(status: number, body: string): string {
  const trimmed = body.trim();
  const message = messageOfJson(parseJson(trimmed)) ?? trimmed;
  return message === '' ? `upstream answered HTTP ${status}` : truncate(sanitizeUpstreamText(message));
}

// ---- OpenAI chunks for private-format stream converters ----

/** The identity a converted stream's chunks share. */
export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
}

export function openAiUsage(promptTokens: number, completionTokens: number): JsonRecord {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** One `chat.completion.chunk` event with a single choice. */
export function chatChunk(meta: ChunkMeta, delta: JsonObject, finishReason: string | null = null): SseEvent {
  const choice: JsonMap = { index: 0, delta: delta as JsonMap, finish_reason: finishReason };
  return { data: JSON.stringify(openAIChunk(meta.id, meta.created, meta.model, [choice])) };
}

/** The final usage chunk (empty choices), as OpenAI sends it with stream_options.include_usage. */
export function usageChunk(meta: ChunkMeta, promptTokens: number, completionTokens: number): SseEvent {
  const usage = openAiUsage(promptTokens, completionTokens);
  return { data: JSON.stringify(openAIChunk(meta.id, meta.created, meta.model, [], usage)) };
}

/** An in-stream error, in the shape OpenAI uses for errors met after the stream started. */
export function errorChunk(message: string, code?: string): SseEvent {
  return { data: JSON.stringify({ error: compact({ message, type: 'upstream_error', code }) }) };
}

/** A non-streaming `chat.completion` with one choice. */
export function chatCompletion(
  meta: ChunkMeta,
  message: JsonObject,
  finishReason: string,
  promptTokens: number,
  completionTokens: number,
): JsonObject {
  return jsonObject({
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: openAiUsage(promptTokens, completionTokens),
  });
}

/** An OpenAI embeddings list from plain vectors. */
export function embeddingList(model: string, vectors: unknown[], promptTokens: number): JsonObject {
  return {
    object: 'list',
    data: vectors.map((embedding, index) => ({
      object: 'embedding',
      index,
      embedding: json(embedding) ?? [],
    })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

/**
 * A rerank answer with `usage: {prompt_tokens, total_tokens}` filled in when the provider reports its
 * token count elsewhere (Jina: usage.total_tokens only; SiliconFlow: meta.tokens; Cohere:
 * meta.billed_units). Other fields are kept.
 */
export function normalizeRerank(body: unknown): JsonObject {
  const answer = asObj(body);
  const usage = asObj(answer.usage);
  const meta = asObj(answer.meta);
  const prompt =
    num(usage.prompt_tokens) ??
    num(usage.total_tokens) ??
    num(asObj(meta.tokens).input_tokens) ??
    num(asObj(meta.billed_units).input_tokens) ??
    0;
  const total = num(usage.total_tokens) ?? prompt;
  return jsonObject({ ...answer, usage: { ...usage, prompt_tokens: prompt, total_tokens: total } });
}

export function unsupportedMode(adapter: string, mode: RelayMode): Error {
  return new Error(`The ${adapter} adapter does not support ${mode} requests`);
}
