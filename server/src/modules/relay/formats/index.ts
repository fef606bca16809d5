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
    default:
      return hub;
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

export function fromHubResponse(format: WireFormat, hub: JsonObject, model: string): JsonObject {
  switch (format) {
    case 'anthropic':
      return openAIToAnthropicResponse({ ...hub, model });
    case 'gemini':
      return openAIToGeminiResponse({ ...hub, model });
    case 'responses':
      return openAIToResponsesResponse({ ...hub, model }, { createdAt: Math.floor(Date.now() / 1000) });
    default:
      return { ...hub, model };
  }
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
  constructor(private readonly model: string) {}
  push(chunk: JsonObject): SseEvent[] {
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
