/** OpenAI wire format: errors, chat completions, legacy completions and the Responses API. */
import {
  Directives,
  lastUser,
  MockUsage,
  parseDirectives,
  replyPieces,
  textOf,
  TOOL_ARGUMENT_PIECES,
  TOOL_ARGUMENTS,
  usageOf,
} from './directives';
import { CREATED, Ctx, defaultErrorMessage, ErrorWriter, Exchange, sseData, sseEvent } from './exchange';

const SSE = 'text/event-stream; charset=utf-8';
const FINGERPRINT = 'fp_mock';

export const openaiError: ErrorWriter = (ex, status, message) => {
  let type = status >= 500 ? 'server_error' : 'invalid_request_error';
  let code: string | null = null;
  if (status === 401) code = 'invalid_api_key';
  if (status === 404) code = 'model_not_found';
  if (status === 429) [type, code] = ['requests', 'rate_limit_exceeded'];
  ex.json(status, { error: { message: message ?? defaultErrorMessage(status), type, param: null, code } });
};

/** A 400 for a malformed request, the way OpenAI words it. */
export function invalidRequest(ex: Exchange, message: string, param: string | null = null): void {
  ex.json(400, { error: { message, type: 'invalid_request_error', param, code: null } });
}

/** Directives of an OpenAI request body: chat messages, Responses input or a completions prompt. */
export function openaiDirectives(body: Record<string, unknown>): Directives {
  if (Array.isArray(body.messages)) {
    return parseDirectives(textOf(lastUser(body.messages, (r) => r === 'user')?.content));
  }
  const input = body.input ?? body.prompt;
  if (typeof input === 'string') return parseDirectives(input);
  const last = lastUser(input, (r) => r === 'user');
  if (last) return parseDirectives(textOf(last.content));
  return parseDirectives(Array.isArray(input) ? input.filter((s) => typeof s === 'string').join('\n') : '');
}

export function chatUsage(u: MockUsage): Record<string, unknown> {
  const prompt = u.prompt + u.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.completion,
    total_tokens: prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Common checks of chat and completions bodies; returns false after answering 400. */
function checkStreamingBody(ctx: Ctx): boolean {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string' && !ctx.pathModel) {
    invalidRequest(ex, 'you must provide a model parameter');
    return false;
  }
  if (body.stream_options != null && body.stream !== true) {
    invalidRequest(
      ex,
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
    );
    return false;
  }
  return true;
}

export async function chatCompletions(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (!checkStreamingBody(ctx)) return;
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return invalidRequest(ex, "Missing required parameter: 'messages'.", 'messages');
  }
  const d = openaiDirectives(body);
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  const model = ctx.pathModel ?? (body.model as string);
  const id = `chatcmpl-mock-${ctx.n}`;
  const callId = `call_mock_${ctx.n}`;
  const pieces = d.tool ? TOOL_ARGUMENT_PIECES : replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const base = { id, object: 'chat.completion.chunk', created: CREATED, model };
  const extra = { service_tier: 'default', system_fingerprint: FINGERPRINT };

  if (body.stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    const message = d.tool
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: callId,
              type: 'function',
              function: { name: d.tool, arguments: JSON.stringify(TOOL_ARGUMENTS) },
            },
          ],
          refusal: null,
          annotations: [],
        }
      : { role: 'assistant', content: pieces.join(''), refusal: null, annotations: [] };
    const choice = { index: 0, message, logprobs: null, finish_reason: d.tool ? 'tool_calls' : 'stop' };
    return ex.json(200, {
      ...base,
      object: 'chat.completion',
      choices: [choice],
      ...(usage ? { usage: chatUsage(usage) } : {}),
      ...extra,
    });
  }

  const includeUsage = usage !== null && body.stream_options?.include_usage === true;
  const chunk = (delta: object, finish: string | null = null): string =>
    sseData({
      ...base,
      ...extra,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  ex.begin(SSE);
  let done: boolean;
  if (d.tool) {
    const call = { index: 0, id: callId, type: 'function', function: { name: d.tool, arguments: '' } };
    ex.write(chunk({ role: 'assistant', content: null, tool_calls: [call], refusal: null }));
    done = await ex.stream(pieces, d, (p) =>
      ex.write(chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
    );
  } else {
    ex.write(chunk({ role: 'assistant', content: '', refusal: null }));
    done = await ex.stream(pieces, d, (p) => ex.write(chunk({ content: p })));
  }
  if (!done) return;
  ex.write(chunk({}, d.tool ? 'tool_calls' : 'stop'));
  if (includeUsage && usage) ex.write(sseData({ ...base, ...extra, choices: [], usage: chatUsage(usage) }));
  ex.write(sseData('[DONE]'));
  ex.end();
}

export async function completions(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (!checkStreamingBody(ctx)) return;
  const d = openaiDirectives({ prompt: body.prompt ?? '' });
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  const pieces = replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const base = {
    id: `cmpl-mock-${ctx.n}`,
    object: 'text_completion',
    created: CREATED,
    model: ctx.pathModel ?? body.model,
  };
  const u = usage && {
    prompt_tokens: usage.prompt + usage.cacheRead,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.cacheRead + usage.completion,
  };
  const choice = (text: string, finish: string | null) => ({
    text,
    index: 0,
    logprobs: null,
    finish_reason: finish,
  });

  if (body.stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    return ex.json(200, { ...base, choices: [choice(pieces.join(''), 'stop')], ...(u ? { usage: u } : {}) });
  }
  const includeUsage = u !== null && body.stream_options?.include_usage === true;
  ex.begin(SSE);
  const done = await ex.stream(pieces, d, (p) => ex.write(sseData({ ...base, choices: [choice(p, null)] })));
  if (!done) return;
  ex.write(sseData({ ...base, choices: [choice('', 'stop')] }));
  if (includeUsage) ex.write(sseData({ ...base, choices: [], usage: u }));
  ex.write(sseData('[DONE]'));
  ex.end();
}

function responsesUsage(u: MockUsage | null): Record<string, unknown> | null {
  if (!u) return null;
  const input = u.prompt + u.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + u.completion,
  };
}

export async function responses(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string' && !ctx.pathModel)
    return invalidRequest(ex, "Missing required parameter: 'model'.");
  const d = openaiDirectives({ input: body.input ?? '' });
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  const n = ctx.n;
  const pieces = d.tool ? TOOL_ARGUMENT_PIECES : replyPieces(d);
  const usage = responsesUsage(usageOf(d, pieces.length));
  const text = pieces.join('');
  const part = (t: string) => ({ type: 'output_text', annotations: [], logprobs: [], text: t });
  const item = (status: string, t: string) =>
    d.tool
      ? {
          id: `fc_mock_${n}`,
          type: 'function_call',
          status,
          arguments: t,
          call_id: `call_mock_${n}`,
          name: d.tool,
        }
      : {
          id: `msg_mock_${n}`,
          type: 'message',
          status,
          content: status === 'completed' ? [part(t)] : [],
          role: 'assistant',
        };
  const response = (status: string, output: unknown[], u: unknown) => ({
    id: `resp_mock_${n}`,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: ctx.pathModel ?? body.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: u,
    user: null,
    metadata: body.metadata ?? {},
  });

  if (body.stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    return ex.json(200, response('completed', [item('completed', text)], usage));
  }
  let seq = 0;
  const emit = (type: string, data: object) =>
    ex.write(sseEvent(type, { type, sequence_number: seq++, ...data }));
  const ids = { item_id: item('', '').id, output_index: 0 };
  ex.begin(SSE);
  emit('response.created', { response: response('in_progress', [], null) });
  emit('response.in_progress', { response: response('in_progress', [], null) });
  emit('response.output_item.added', { output_index: 0, item: item('in_progress', '') });
  let done: boolean;
  if (d.tool) {
    done = await ex.stream(pieces, d, (p) =>
      emit('response.function_call_arguments.delta', { ...ids, delta: p }),
    );
    if (!done) return;
    emit('response.function_call_arguments.done', { ...ids, arguments: text });
  } else {
    emit('response.content_part.added', { ...ids, content_index: 0, part: part('') });
    const delta = (p: string) =>
      emit('response.output_text.delta', { ...ids, content_index: 0, delta: p, logprobs: [] });
    done = await ex.stream(pieces, d, delta);
    if (!done) return;
    emit('response.output_text.done', { ...ids, content_index: 0, text, logprobs: [] });
    emit('response.content_part.done', { ...ids, content_index: 0, part: part(text) });
  }
  emit('response.output_item.done', { output_index: 0, item: item('completed', text) });
  emit('response.completed', { response: response('completed', [item('completed', text)], usage) });
  ex.end();
}

/**
 * POST /v1/responses/compact (Codex's history compaction): the input items replaced by one user
 * message summarising them, with Responses-style usage.
 */
export async function responsesCompact(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string') return invalidRequest(ex, "Missing required parameter: 'model'.");
  if (!Array.isArray(body.input)) return invalidRequest(ex, "Missing required parameter: 'input'.");
  const d = openaiDirectives({ input: body.input });
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  const usage = responsesUsage(usageOf(d, 6));
  ex.json(200, {
    id: `resp_compact_mock_${ctx.n}`,
    object: 'response.compaction',
    created_at: CREATED,
    output: [
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `Summary of ${body.input.length} items.` }],
      },
    ],
    ...(usage ? { usage } : {}),
  });
}
