/**
 * Shapes shared by the relay's pure parts (format converters, provider adapters, stream transforms)
 * and its one I/O owner, relay.service. Bodies are plain JSON objects in a provider's wire format;
 * the converters are typed loosely on purpose: unknown fields pass through untouched.
 *
 * The hub format is OpenAI chat completions. A request whose inbound format differs from the
 * channel's native format is converted inbound → hub → native, and the answer native → hub →
 * inbound. Same-format traffic is forwarded without conversion.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json | undefined };

/** The wire formats a client may speak and a channel may natively speak. */
export type WireFormat = 'openai' | 'anthropic' | 'gemini' | 'responses';

export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'responses'
  /** OpenAI's Responses compaction (`/v1/responses/compact`, used by Codex): OpenAI channels only. */
  | 'responses-compact'
  | 'images'
  | 'image-edits'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'moderations'
  | 'rerank';

/** One server-sent event, as parsed from or written to a stream. */
export interface SseEvent {
  event?: string;
  data: string;
}

export type { UsageCounts } from '../billing';
export { emptyUsage } from '../billing';

/** Per-stream converter: fed events in order, returns what to emit; end() flushes at the end. */
export interface StreamConverter<In, Out> {
  push(input: In): Out[];
  end(): Out[];
  /**
   * Takes an input that is nothing but a text delta, as its text alone (an OpenAI chunk for a hub →
   * caller converter: `openaiTextDelta`; an Anthropic event for Anthropic → hub: `anthropicTextDelta`),
   * and gives what `push` would give for it; null when it cannot tell without the input (the stream not
   * started or already closed): the caller then parses the input and `push`es it.
   */
  pushText?(text: string): Out[] | null;
}

/** Folds the events of an upstream stream into one answer (see ProviderAdapter.createStreamAggregator). */
export interface StreamAggregator {
  push(input: SseEvent): void;
  result(): JsonObject;
}

/** What an adapter knows about the channel serving a request. */
export interface ChannelTarget {
  id: number;
  type: number;
  /** Base URL without trailing slash (the type's default when the channel has none). */
  baseUrl: string;
  /** The one key chosen for this request (a channel may hold several, one per line). */
  key: string;
  /** The channel's `other` field: API version (Azure), region (Vertex/Bedrock), account id (Cloudflare)... */
  other: string;
  organization: string;
}

/** Relay settings of the models tab that adapters read (options snapshot). */
export interface AdapterSettings {
  geminiSafetySettings: Record<string, string>;
  geminiVersionSettings: Record<string, string>;
  geminiThinkingAdapterEnabled: boolean;
  geminiThinkingBudgetPercentage: number;
  claudeModelHeaders: Record<string, Record<string, string>>;
  claudeDefaultMaxTokens: Record<string, number>;
  claudeThinkingAdapterEnabled: boolean;
  claudeThinkingBudgetPercentage: number;
  /** Gemini models that generate images (`gemini.supported_imagine_models`). */
  geminiSupportedImagineModels: string[];
}

export interface AdapterRequest {
  mode: RelayMode;
  /** The model name sent upstream (after model_mapping). */
  model: string;
  stream: boolean;
  /** Request body in the adapter's native format (JSON modes). */
  body: JsonObject;
  channel: ChannelTarget;
  settings: AdapterSettings;
  /** A bearer obtained through the adapter's credential exchange (Vertex, Baidu legacy), if any. */
  accessToken?: string;
  /**
   * The client's own bytes, set only when `body` is exactly what the client sent (same format, same
   * model, no setting, override or stream option added): an adapter may send them instead of
   * serialising `body` again.
   */
  rawBody?: Uint8Array;
}

export interface UpstreamCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** How the bytes of an upstream stream are cut into events. */
export type StreamFraming = 'sse' | 'ndjson' | 'aws-eventstream';

/** A credential exchange done before the call (cached by relay.service until it expires). */
export interface CredentialExchange {
  cacheKey: string;
  request: UpstreamCall;
  parse(body: unknown): { token: string; expiresInSeconds: number };
}

/**
 * One provider. Pure: no I/O, no clock reads except through arguments, no globals.
 * `format` is the wire format of `body` in buildRequest and of what convertResponse /
 * createStreamConverter produce. Providers with a private format (Cohere, Dify, Baidu...) declare
 * 'openai' and convert from/to the hub themselves.
 */
export interface ProviderAdapter {
  readonly name: string;
  readonly format: WireFormat;
  readonly modes: readonly RelayMode[];
  readonly framing?: StreamFraming;
  /** 'websocket': relay.service performs the exchange over a websocket (iFlytek Spark). */
  readonly transport?: 'http' | 'websocket';
  credentials?(channel: ChannelTarget, nowSeconds: number): CredentialExchange | null;
  buildRequest(req: AdapterRequest): UpstreamCall;
  /** Upstream JSON answer → `format`. Absent = identity. */
  convertResponse?(body: unknown, req: AdapterRequest): JsonObject;
  /** Upstream stream events → `format` events (SSE data as objects). Absent = identity. */
  createStreamConverter?(req: AdapterRequest): StreamConverter<SseEvent, SseEvent>;
  /**
   * For providers that answer some requests only as a stream (Dify agent apps): a non-stream client
   * request is sent as a stream and, when the upstream answers with an event stream, its events are
   * folded into one `format` answer. `result` may throw a RelayError for an error event.
   */
  createStreamAggregator?(req: AdapterRequest): StreamAggregator;
  /** Readable message of an upstream error body (never containing keys or URLs). */
  errorMessage?(status: number, body: string): string;
}
