/**
 * Dispatch between the wire formats. The hub is OpenAI chat: a request is converted
 * inbound → hub → channel format, the answer channel format → hub → inbound. Same-format traffic
 * never comes here (relay.service forwards it as is).
 */
import type { JsonObject, SseEvent, StreamConverter, UsageCounts, WireFormat } from '../types';
import { openaiUsage } from '../usage';
import {
  AnthropicToOpenAIStream,
  OpenAIToAnthropicStream,
  anthropicToOpenAIRequest,
  anthropicToOpenAIResponse,
  anthropicUsage,
  openAIToAnthropicRequest,
  openAIToAnthropicResponse,
} from './anthropic';
import {
  GeminiToOpenAIStream,
  OpenAIToGeminiStream,
  geminiToOpenAIRequest,
  geminiToOpenAIResponse,
  geminiUsage,
  openAIToGeminiRequest,
  openAIToGeminiResponse,
} from './gemini';
import {
  OpenAIToResponsesStream,
  ResponsesToOpenAIStream,
  openAIToResponsesRequest,
  openAIToResponsesResponse,
  responsesToOpenAIRequest,
  responsesToOpenAIResponse,
  responsesUsage,
} from './responses';

export interface HubOptions {
  defaultMaxTokens: number;
  geminiSafetySettings?: Record<string, string>;
}

export function toHubRequest(
  format: WireFormat,
  body: JsonObject,
  model: string,
  stream: boolean,
): JsonObject {
  switch (format) {
    case 'anthropic':
      return anthropicToOpenAIRequest(body);
    case 'gemini':
      return geminiToOpenAIRequest(body, model, stream);
    case 'responses':
      return responsesToOpenAIRequest(body);
    default:
      return body;
  }
}

export function fromHubRequest(format: WireFormat, hub: JsonObject, opts: HubOptions): JsonObject {
  switch (format) {
    case 'anthropic':
      return openAIToAnthropicRequest(hub, { defaultMaxTokens: opts.defaultMaxTokens });
    case 'gemini':
      return openAIToGeminiRequest(hub, { safetySettings: opts.geminiSafetySettings });
    case 'responses':
      return openAIToResponsesRequest(hub);
    default: {
      // top_k of an Anthropic or Gemini caller: OpenAI has no such knob (dropped, see carry.ts).
      if (hub.top_k === undefined) return hub;
      const { top_k: _topK, ...chat } = hub;
      return chat;
    }
  }
}

export function toHubResponse(format: WireFormat, body: JsonObject, model: string): JsonObject {
  switch (format) {
    case 'anthropic':
      return anthropicToOpenAIResponse(body, Math.floor(Date.now() / 1000));
    case 'gemini':
      return geminiToOpenAIResponse(body, model, Math.floor(Date.now() / 1000));
    case 'responses':
      return responsesToOpenAIResponse(body);
    default:
      return body;
  }
}

/** The hub answer in the caller's `format`; `request` is the caller's own request (a Response echoes it). */
export function fromHubResponse(
  format: WireFormat,
  hub: JsonObject,
  model: string,
  request?: JsonObject,
): JsonObject {
  switch (format) {
    case 'anthropic':
      return openAIToAnthropicResponse({ ...hub, model });
    case 'gemini':
      return openAIToGeminiResponse({ ...hub, model });
    case 'responses':
      return openAIToResponsesResponse(
        { ...hub, model },
        { createdAt: Math.floor(Date.now() / 1000), request },
      );
    default:
      return { ...hub, model };
  }
}

const CHUNK_KEYS = ['id', 'object', 'created', 'model', 'choices'];
const CHOICE_KEYS = ['index', 'delta', 'finish_reason'];

/** Whether `o` has exactly these own enumerable keys, in this order. */
function keysAre(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (k !== keys[i++]) return false;
  return i === keys.length;
}

/**
 * The content of a hub chunk that is exactly `openAIChunk(id, created, model, [{ index: 0, delta:
 * { content }, finish_reason: null }])` (a string id, a finite created time, a string content, nothing
 * else); null for any other chunk.
 */
function textChunkContent(chunk: JsonObject): string | null {
  if (!keysAre(chunk, CHUNK_KEYS) || typeof chunk.id !== 'string' || chunk.object !== 'chat.completion.chunk')
    return null;
  if (typeof chunk.created !== 'number' || !Number.isFinite(chunk.created)) return null;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return null;
  const choice = choices[0] as JsonObject;
  if (typeof choice !== 'object' || choice === null || !keysAre(choice, CHOICE_KEYS)) return null;
  if (choice.index !== 0 || choice.finish_reason !== null) return null;
  const delta = choice.delta as JsonObject;
  if (typeof delta !== 'object' || delta === null || !keysAre(delta, ['content'])) return null;
  return typeof delta.content === 'string' ? delta.content : null;
}

/** Parses OpenAI chunk events (data JSON; `[DONE]` ends the stream and is dropped). */
class OpenAIEventsToHub implements StreamConverter<SseEvent, JsonObject> {
  push(e: SseEvent): JsonObject[] {
    const data = e.data.trim();
    if (!data || data === '[DONE]') return [];
    const v = JSON.parse(data) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? [v as JsonObject] : [];
  }
  end(): JsonObject[] {
    return [];
  }
}

class HubToOpenAIEvents implements StreamConverter<JsonObject, SseEvent> {
  private readonly modelJson: string;
  constructor(private readonly model: string) {
    this.modelJson = JSON.stringify(model);
  }
  push(chunk: JsonObject): SseEvent[] {
    // Most of a converted answer is chunks of one text delta (`openAIChunk`'s shape): their text as
    // JSON.stringify writes it, made from the one string that varies (about a tenth of its time).
    const text = textChunkContent(chunk);
    if (text !== null)
      return [
        {
          data: `{"id":${JSON.stringify(chunk.id)},"object":"chat.completion.chunk","created":${JSON.stringify(chunk.created)},"model":${this.modelJson},"choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}`,
        },
      ];
    return [{ data: JSON.stringify({ ...chunk, model: this.model }) }];
  }
  end(): SseEvent[] {
    return [];
  }
}

export function toHubStream(format: WireFormat, model: string): StreamConverter<SseEvent, JsonObject> {
  const created = Math.floor(Date.now() / 1000);
  switch (format) {
    case 'anthropic':
      return new AnthropicToOpenAIStream({ created });
    case 'gemini':
      return new GeminiToOpenAIStream({ model, created });
    case 'responses':
      return new ResponsesToOpenAIStream();
    default:
      return new OpenAIEventsToHub();
  }
}

export function fromHubStream(
  format: WireFormat,
  model: string,
  requestId: string,
  request?: JsonObject,
): StreamConverter<JsonObject, SseEvent> {
  switch (format) {
    case 'anthropic':
      return new OpenAIToAnthropicStream({ model, id: `msg_${requestId}` });
    case 'gemini':
      return new OpenAIToGeminiStream();
    case 'responses':
      return new OpenAIToResponsesStream({
        model,
        id: `resp_${requestId}`,
        createdAt: Math.floor(Date.now() / 1000),
        request,
      });
    default:
      return new HubToOpenAIEvents(model);
  }
}

/** Usage of a complete (non-stream) answer in `format`. */
export function usageOf(format: WireFormat, body: JsonObject): UsageCounts | null {
  switch (format) {
    case 'anthropic':
      return body.usage ? anthropicUsage(body.usage) : null;
    case 'gemini':
      return body.usageMetadata ? geminiUsage(body.usageMetadata) : null;
    case 'responses':
      return body.usage ? responsesUsage(body.usage) : null;
    default:
      return openaiUsage(body.usage);
  }
}
