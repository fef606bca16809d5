/**
 * Dify service API wire format: POST /v1/chat-messages of a chat app, `response_mode` blocking (one
 * JSON answer) or streaming (server-sent `data:` events whose kind is their JSON `event` field; pings
 * are bare `event: ping` lines). Errors are `{"code", "message", "status"}` with the HTTP status;
 * an error met while streaming is an `error` event.
 *
 * The mock app is a chatflow (advanced-chat: workflow and node events around the `message` events);
 * under [[agent]] it is an agent app (agent_thought / agent_message events, and no blocking mode, as
 * Dify's agent apps). Dify runs its tools itself, so [[tool=...]] has no meaning here.
 * [[streamerror=text]] ends a streamed answer with an `error` event (status 400) instead of message_end.
 */
import { MockUsage, parseDirectives, replyPieces, usageOf } from './directives';
import { CREATED, Ctx, defaultErrorMessage, ErrorWriter, Exchange, sseData } from './exchange';

const CODES: Record<number, string> = {
  400: 'invalid_param',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'file_too_large',
  415: 'unsupported_file_type',
  429: 'too_many_requests',
};

export const difyError: ErrorWriter = (ex, status, message) => {
  const code = CODES[status] ?? (status >= 500 ? 'internal_server_error' : 'bad_request');
  ex.json(status, { code, message: message ?? defaultErrorMessage(status), status });
};

function invalid(ex: Exchange, message: string): void {
  difyError(ex, 400, message);
}

function usageJson(u: MockUsage): Record<string, unknown> {
  const price = (tokens: number) => (tokens * 0.000001).toFixed(7);
  return {
    prompt_tokens: u.prompt,
    prompt_unit_price: '0.001',
    prompt_price_unit: '0.001',
    prompt_price: price(u.prompt),
    completion_tokens: u.completion,
    completion_unit_price: '0.002',
    completion_price_unit: '0.001',
    completion_price: price(2 * u.completion),
    total_tokens: u.prompt + u.completion,
    total_price: price(u.prompt + 2 * u.completion),
    currency: 'USD',
    latency: 0.42,
  };
}

/** A uuid-shaped id, deterministic per request and role. */
function uuid(n: number, role: number): string {
  const hex = (n * 16 + role).toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** POST /v1/chat-messages. */
export async function difyChat(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.query !== 'string') return invalid(ex, 'query is required');
  if (body.inputs === null || typeof body.inputs !== 'object')
    return invalid(ex, 'inputs is required in input form');
  if (typeof body.user !== 'string' || body.user === '') return invalid(ex, 'user is required');
  const streaming = body.response_mode === 'streaming';
  const d = parseDirectives(body.query);
  if (d.agent && !streaming) return invalid(ex, 'Agent Chat App does not support blocking mode');
  if (await ex.gate(d, difyError)) return;

  const pieces = replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const metadata = { ...(usage ? { usage: usageJson(usage) } : {}), retriever_resources: [] };
  const ids = {
    task_id: uuid(ctx.n, 1),
    message_id: uuid(ctx.n, 2),
    conversation_id:
      typeof body.conversation_id === 'string' && body.conversation_id
        ? body.conversation_id
        : uuid(ctx.n, 3),
  };

  if (!streaming) {
    if (!(await ex.beforeAnswer(d))) return;
    return ex.json(200, {
      event: 'message',
      ...ids,
      id: ids.message_id,
      mode: 'advanced-chat',
      answer: pieces.join(''),
      metadata,
      created_at: CREATED,
    });
  }

  const emit = (event: string, data: object = {}) => ex.write(sseData({ event, ...ids, ...data }));
  const run = { workflow_run_id: uuid(ctx.n, 4) };
  const node = (event: string, id: string, type: string) =>
    emit(event, { ...run, data: { id: `${id}-run`, node_id: id, node_type: type, title: type, index: 1 } });
  ex.begin('text/event-stream');
  ex.write('event: ping\n\n');
  if (d.agent) {
    emit('agent_thought', {
      id: uuid(ctx.n, 5),
      position: 1,
      thought: '',
      tool: '',
      tool_input: '',
      observation: '',
    });
  } else {
    emit('workflow_started', {
      ...run,
      data: { id: run.workflow_run_id, sequence_number: ctx.n, created_at: CREATED },
    });
    node('node_started', 'start', 'start');
    node('node_finished', 'start', 'start');
    node('node_started', 'llm', 'llm');
  }
  const kind = d.agent ? 'agent_message' : 'message';
  const done = await ex.stream(pieces, d, (p) =>
    emit(kind, { id: ids.message_id, answer: p, created_at: CREATED }),
  );
  if (!done) return;
  if (d.streamError !== undefined) {
    emit('error', { status: 400, code: 'completion_request_error', message: d.streamError });
    return ex.end();
  }
  if (d.agent) {
    emit('agent_thought', {
      id: uuid(ctx.n, 5),
      position: 1,
      thought: pieces.join(''),
      tool: '',
      tool_input: '',
      observation: '',
    });
  } else {
    node('node_finished', 'llm', 'llm');
    emit('workflow_finished', {
      ...run,
      data: {
        id: run.workflow_run_id,
        status: 'succeeded',
        outputs: { answer: pieces.join('') },
        created_at: CREATED,
      },
    });
  }
  emit('message_end', { id: ids.message_id, metadata, files: [] });
  ex.end();
}
