/** Anthropic wire format: errors and the Messages API (JSON and event stream). */
import {
  lastUser,
  MockUsage,
  parseDirectives,
  replyPieces,
  textOf,
  TOOL_ARGUMENT_PIECES,
  TOOL_ARGUMENTS,
  usageOf,
} from './directives';
import { CREATED, Ctx, defaultErrorMessage, ErrorWriter, Exchange, sseEvent } from './exchange';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export const anthropicError: ErrorWriter = (ex, status, message) => {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  ex.json(status, { type: 'error', error: { type, message: message ?? defaultErrorMessage(status) } });
};

function invalid(ex: Exchange, message: string): void {
  anthropicError(ex, 400, message);
}

function usageJson(u: MockUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: u.prompt,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    cache_creation: {
      ephemeral_5m_input_tokens: u.cacheWrite - u.cacheWrite1h,
      ephemeral_1h_input_tokens: u.cacheWrite1h,
    },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

export async function messages(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (!ctx.record.headers['anthropic-version']) return invalid(ex, 'anthropic-version: header is required');
  if (typeof body.model !== 'string') return invalid(ex, 'model: Field required');
  if (typeof body.max_tokens !== 'number') return invalid(ex, 'max_tokens: Field required');
  if (!Array.isArray(body.messages)) return invalid(ex, 'messages: Field required');
  await answerMessage(ctx, { model: body.model, stream: body.stream === true, writeError: anthropicError });
}

/**
 * How a host of Claude models (Anthropic itself, Bedrock, Vertex AI) delivers a Messages API answer:
 * the model named in the message, whether to stream, its error format and, for streams, its framing.
 */
export interface MessageDelivery {
  model: string;
  stream: boolean;
  writeError: ErrorWriter;
  /** Headers of a non-stream answer. */
  headers?: (usage: MockUsage | null) => Record<string, string>;
  /** Starts a stream (default: server-sent events). */
  begin?: (ex: Exchange) => void;
  /** Writes one stream event (default: an SSE event named after its type). */
  event?: (ex: Exchange, data: { type: string }) => void;
  /** Extra fields of the message_stop event (Bedrock's invocation metrics). */
  stopExtra?: (usage: MockUsage | null) => Record<string, unknown>;
}

/** Answers a validated Messages API request (last user message's directives), JSON or streamed. */
export async function answerMessage(ctx: Ctx, delivery: MessageDelivery): Promise<void> {
  const { ex, body } = ctx;
  const last = lastUser(body.messages, (r) => r === 'user');
  const d = parseDirectives(textOf(last?.content));
  if (await ex.gate(d, delivery.writeError)) return;

  const pieces = d.tool ? TOOL_ARGUMENT_PIECES : replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const toolId = `toolu_mock_${ctx.n}`;
  const stopReason = d.tool ? 'tool_use' : 'end_turn';
  const message = {
    id: `msg_mock_${ctx.n}`,
    type: 'message',
    role: 'assistant',
    model: delivery.model,
    content: [] as unknown[],
    stop_reason: null as string | null,
    stop_sequence: null,
    ...(usage ? { usage: usageJson(usage, 1) } : {}),
  };

  if (!delivery.stream) {
    if (!(await ex.beforeAnswer(d))) return;
    const block = d.tool
      ? { type: 'tool_use', id: toolId, name: d.tool, input: TOOL_ARGUMENTS }
      : { type: 'text', text: pieces.join('') };
    const answer = {
      ...message,
      content: [block],
      stop_reason: stopReason,
      ...(usage ? { usage: usageJson(usage, usage.completion) } : {}),
    };
    return ex.json(200, answer, delivery.headers?.(usage) ?? {});
  }

  const write =
    delivery.event ?? ((x: Exchange, data: { type: string }) => x.write(sseEvent(data.type, data)));
  const emit = (type: string, data: object = {}) => write(ex, { type, ...data });
  if (delivery.begin) delivery.begin(ex);
  else ex.begin('text/event-stream; charset=utf-8');
  emit('message_start', { message });
  const block = d.tool
    ? { type: 'tool_use', id: toolId, name: d.tool, input: {} }
    : { type: 'text', text: '' };
  emit('content_block_start', { index: 0, content_block: block });
  emit('ping');
  const delta = (p: string) =>
    d.tool ? { type: 'input_json_delta', partial_json: p } : { type: 'text_delta', text: p };
  const done = await ex.stream(pieces, d, (p) => emit('content_block_delta', { index: 0, delta: delta(p) }));
  if (!done) return;
  emit('content_block_stop', { index: 0 });
  // The counters of message_delta are cumulative totals of the whole message (never to be added up).
  const deltaUsage = usage && {
    input_tokens: usage.prompt,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: usage.completion,
  };
  emit('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: deltaUsage ?? undefined,
  });
  emit('message_stop', delivery.stopExtra?.(usage) ?? {});
  ex.end();
}

/**
 * POST /v1/messages/count_tokens: a deterministic count (a quarter of the counted JSON's length), so
 * tests can tell it from the gateway's own tokenizer.
 */
export function countTokens(ctx: Ctx): void {
  const { ex, body } = ctx;
  if (!ctx.record.headers['anthropic-version']) return invalid(ex, 'anthropic-version: header is required');
  if (typeof body.model !== 'string') return invalid(ex, 'model: Field required');
  if (!Array.isArray(body.messages)) return invalid(ex, 'messages: Field required');
  if (body.max_tokens !== undefined) return invalid(ex, 'max_tokens: Extra inputs are not permitted');
  ex.json(200, {
    input_tokens: mockCount({ messages: body.messages, system: body.system, tools: body.tools }),
  });
}

export function mockCount(counted: unknown): number {
  return Math.ceil(JSON.stringify(counted).length / 4);
}

/** GET /v1/models when the request carries anthropic-version. */
export function anthropicModels(ctx: Ctx): void {
  const created = new Date(CREATED * 1000).toISOString();
  const data = ctx.models.map((id) => ({ type: 'model', id, display_name: id, created_at: created }));
  ctx.ex.json(200, {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  });
}
