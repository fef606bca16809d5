/**
 * The pure parts of the realtime relay (OpenAI Realtime over WebSocket, see realtime-relay.service.ts):
 * the API key of an upgrade request, the subprotocol to answer, the upstream URL and headers of a
 * channel, the usage of a `response.done` event, its log row, close codes, and the raw HTTP answer of
 * a refused upgrade. No I/O, no clock reads except through arguments.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { Price } from '../../billing';
import type { LogDraft } from '../../billing';
import { OPENAI_COMPATIBLE_TYPES } from '../adapters';
import { apiRoot, versionPrefix } from '../adapters/openai/paths';
import { upstreamErrorMessage } from '../adapters/util';
import type { ChannelSnapshot } from '../channel-selector';
import { errorBody, RelayError, sanitizeUpstreamText } from '../errors';
import type { RelayContext } from '../relay-context';
import type { UsageCounts } from '../types';
import { emptyUsage } from '../types';
import { consumeDraft, errorDraft } from '../lifecycle/log-draft';
import { KEY_PROTOCOL_PREFIX, keyFromRequest } from '../../../common/api-key';

export const REALTIME_PATH = '/v1/realtime';
/** Azure's realtime API version when the channel's `other` field names none. */
export const AZURE_REALTIME_API_VERSION = '2024-10-01-preview';
/** Bytes a side may have queued (not yet written to its socket) before the session is closed (1011). */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const AZURE = 3;
const REALTIME_TYPES = new Set<number>([...OPENAI_COMPATIBLE_TYPES, AZURE]);

/** Channel types that serve the OpenAI Realtime API: OpenAI and compatible ones, and Azure OpenAI. */
export function isRealtimeType(type: number): boolean {
  return REALTIME_TYPES.has(type);
}

/** The subprotocols the client offered (`Sec-WebSocket-Protocol`, comma-separated). */
export function offeredProtocols(headers: IncomingHttpHeaders): string[] {
  const raw = headers['sec-websocket-protocol'];
  if (typeof raw !== 'string') return [];
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * The API key of an upgrade request: `Authorization: Bearer`, `x-api-key`, the
 * `openai-insecure-api-key.<key>` subprotocol, then `?key=`. Null when none is given.
 */
export function realtimeKey(headers: IncomingHttpHeaders, query: URLSearchParams): string | null {
  return keyFromRequest({ headers, query, protocols: offeredProtocols(headers) });
}

/**
 * The subprotocol answered to the client: `realtime` when offered (what OpenAI answers), else the
 * first one that does not carry the key; false = none (the key is never echoed back).
 */
export function pickProtocol(offered: Iterable<string>): string | false {
  const list = [...offered];
  if (list.includes('realtime')) return 'realtime';
  return list.find((p) => !p.startsWith(KEY_PROTOCOL_PREFIX)) ?? false;
}

/** A channel base URL with its scheme turned into ws/wss (http → ws, https → wss). */
export function wsBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s}://`);
}

export interface RealtimeTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * The upstream WebSocket of a channel: OpenAI(-compatible) `<base>/v1/realtime?model=` with a bearer
 * and `OpenAI-Beta: realtime=v1`; Azure `<base>/openai/realtime?api-version=&deployment=` with
 * `api-key`. The channel's header_override is applied (`{api_key}` replaced). Null for other types.
 */
export function realtimeTarget(
  ch: Pick<ChannelSnapshot, 'type' | 'baseUrl' | 'other' | 'organization' | 'headerOverride'>,
  upstreamModel: string,
  key: string,
): RealtimeTarget | null {
  if (!isRealtimeType(ch.type)) return null;
  const base = wsBase(ch.baseUrl);
  let target: RealtimeTarget;
  if (ch.type === AZURE) {
    const version = ch.other.trim() || AZURE_REALTIME_API_VERSION;
    target = {
      url: `${base}/openai/realtime?api-version=${encodeURIComponent(version)}&deployment=${encodeURIComponent(upstreamModel)}`,
      headers: { 'api-key': key },
    };
  } else {
    target = {
      url: `${apiRoot(base, versionPrefix(ch.type))}/realtime?model=${encodeURIComponent(upstreamModel)}`,
      headers: { Authorization: `Bearer ${key}`, 'OpenAI-Beta': 'realtime=v1' },
    };
    if (ch.organization) target.headers['OpenAI-Organization'] = ch.organization;
  }
  for (const [h, v] of Object.entries(ch.headerOverride ?? {}))
    if (typeof v === 'string') target.headers[h] = v.replace('{api_key}', key);
  return target;
}

/** The usage of one `response.done`: counts for pricing, and its text/audio split for the log. */
export interface RealtimeUsage {
  counts: UsageCounts;
  textInput: number;
  audioInput: number;
  textOutput: number;
  audioOutput: number;
}

const count = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * `response.usage` of a `response.done` event → usage counts. Cached tokens are part of the text and
 * audio input tokens (`cached_tokens_details` splits them); cached audio is billed as cached, so the
 * audio tokens priced with AudioRatio are the uncached ones. Null when the event carries no usage.
 */
export function realtimeUsage(raw: unknown): RealtimeUsage | null {
  const u = obj(raw);
  if (!('input_tokens' in u) && !('output_tokens' in u)) return null;
  const ind = obj(u.input_token_details);
  const outd = obj(u.output_token_details);
  const input = count(u.input_tokens);
  const output = count(u.output_tokens);
  const audioInput = count(ind.audio_tokens);
  const audioOutput = count(outd.audio_tokens);
  const textInput = 'text_tokens' in ind ? count(ind.text_tokens) : Math.max(0, input - audioInput);
  const textOutput = 'text_tokens' in outd ? count(outd.text_tokens) : Math.max(0, output - audioOutput);
  const cached = Math.min(count(ind.cached_tokens), input);
  const cachedAudio = Math.min(count(obj(ind.cached_tokens_details).audio_tokens), audioInput, cached);
  const counts = emptyUsage();
  counts.prompt_tokens = input;
  counts.completion_tokens = output;
  counts.cached_tokens = cached;
  if (audioInput - cachedAudio > 0) counts.audio_prompt_tokens = audioInput - cachedAudio;
  if (audioOutput > 0) counts.audio_completion_tokens = audioOutput;
  return { counts, textInput, audioInput, textOutput, audioOutput };
}

/**
 * Is this text frame possibly a `response.done` (or `response.created`)? A cheap byte search, so the
 * audio deltas that make most of the traffic are never parsed.
 */
export function mayBeEvent(
  data: Buffer,
  type: 'response.done' | 'response.created' | 'response.create',
): boolean {
  return data.includes(type);
}

/** Parses a server event when its `type` is `type`; null otherwise. */
export function parseEvent(data: Buffer, type: string): Record<string, unknown> | null {
  let ev: unknown;
  try {
    ev = JSON.parse(data.toString('utf8'));
  } catch {
    return null;
  }
  const o = obj(ev);
  return o.type === type ? o : null;
}

/** One response's consume-log row (type 2): the relay's usual fields, plus `ws` and the text/audio split. */
export function realtimeDraft(args: {
  ctx: Pick<RelayContext, 'user' | 'token' | 'tokenName' | 'group' | 'model' | 'req'> & { price: Price };
  channelId: number;
  upstreamModel: string;
  tried: number[];
  quota: number;
  usage: RealtimeUsage;
  responseId: string;
  startedAt: number;
  now: number;
  /** The session's messages are stored (content logs): the console offers them from this row. */
  contentLogged?: boolean;
}): LogDraft {
  const { ctx, usage } = args;
  const p = ctx.price;
  return consumeDraft(ctx, {
    channelId: args.channelId,
    quota: args.quota,
    // The audio split goes in as measured (before cache), below, not as priced.
    usage: { ...usage.counts, audio_prompt_tokens: undefined, audio_completion_tokens: undefined },
    stream: true,
    startedAt: args.startedAt,
    now: args.now,
    extra: {
      ws: true,
      admin_info: { use_channel: args.tried },
      ...(args.upstreamModel !== ctx.model
        ? { is_model_mapped: true, upstream_model_name: args.upstreamModel }
        : {}),
      ...(args.responseId ? { response_id: args.responseId } : {}),
      ...(usage.audioInput || usage.audioOutput ? { audio: true } : {}),
      audio_ratio: p.audioRatio,
      audio_completion_ratio: p.audioCompletionRatio,
      audio_input: usage.audioInput,
      audio_output: usage.audioOutput,
      text_input: usage.textInput,
      text_output: usage.textOutput,
      ...(args.contentLogged ? { content_logged: true } : {}),
    },
  });
}

/** The error-log row (type 5) of a session whose upstream could not be opened. */
export function realtimeErrorDraft(args: {
  ctx: Pick<RelayContext, 'user' | 'token' | 'tokenName' | 'group' | 'model' | 'req'> & { price: Price };
  channelId: number;
  tried: number[];
  error: RelayError;
  now: number;
}): LogDraft {
  return errorDraft(args.ctx, {
    channelId: args.channelId,
    usage: emptyUsage(),
    stream: true,
    startedAt: args.now,
    now: args.now,
    extra: { ws: true, admin_info: { use_channel: args.tried } },
    status: args.error.status,
    message: args.error.messageIn('en'),
  });
}

/**
 * The upstream refused the handshake with an HTTP answer: its (sanitized) message, the status after
 * the channel's status_code_mapping, retryable as in the HTTP relay (429, 401, 403, 5xx but 504/524).
 */
export function handshakeError(
  ch: Pick<ChannelSnapshot, 'statusCodeMapping'>,
  status: number,
  body: string,
): RelayError {
  const message = sanitizeUpstreamText(upstreamErrorMessage(status, body));
  const mapped = ch.statusCodeMapping[String(status)];
  const clientStatus = mapped !== undefined && Number.isInteger(Number(mapped)) ? Number(mapped) : status;
  const retryable =
    status === 429 || status === 401 || status === 403 || (status >= 500 && status !== 504 && status !== 524);
  return new RelayError(clientStatus, null, {}, message, 'upstream_error', retryable);
}

/** A close code the other side may be sent (1005 "no status" → 1000, 1006 "abnormal" → `abnormal`). */
export function relayCloseCode(code: number, abnormal: number): number {
  if (code === 1006) return abnormal;
  const sendable =
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005) || (code >= 3000 && code <= 4999);
  return sendable ? code : 1000;
}

/** A close reason within the protocol's 123 bytes (cut on a character boundary). */
export function closeReason(reason: Buffer | string): string {
  let s = typeof reason === 'string' ? reason : reason.toString('utf8');
  while (Buffer.byteLength(s) > 123) s = s.slice(0, -1);
  return s;
}

/** The `error` server event sent to the client before the gateway closes a session. */
export function errorEvent(message: string, code: string, type = 'invalid_request_error'): string {
  return JSON.stringify({
    type: 'error',
    event_id: `event_gh_${randomBytes(8).toString('hex')}`,
    error: { type, code, message, param: null, event_id: null },
  });
}

/** The raw HTTP answer of a refused upgrade (OpenAI error JSON), written straight to the socket. */
export function httpRefusal(
  status: number,
  message: string,
  code: string | null,
  requestId: string,
  retryAfter: number | null = null,
): string {
  const body = JSON.stringify(errorBody('openai', status, message, code));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Connection: close\r\n' +
    (retryAfter !== null ? `Retry-After: ${retryAfter}\r\n` : '') +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Oneapi-Request-Id: ${requestId}\r\n` +
    '\r\n' +
    body
  );
}

/** yyyyMMddHHmmss + 8 random hex characters, like the HTTP relay's request ids. */
export function sessionRequestId(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}` +
    `${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}${randomBytes(4).toString('hex')}`
  );
}
