/**
 * Ollama native API wire format: POST /api/chat (one JSON answer with `stream: false`; otherwise, as
 * Ollama's default, newline-delimited JSON objects ending with a `done: true` line carrying
 * done_reason, prompt_eval_count and eval_count) and POST /api/embed. Errors are `{"error": "..."}`
 * with the HTTP status. Tool calls come whole in one message, with object arguments.
 */
import {
  lastUser,
  MockUsage,
  parseDirectives,
  replyPieces,
  textOf,
  TOOL_ARGUMENTS,
  usageOf,
} from './directives';
import { CREATED, Ctx, defaultErrorMessage, ErrorWriter } from './exchange';
import { embeddingVector } from './openai-media';

const NDJSON = 'application/x-ndjson';
const CREATED_AT = new Date(CREATED * 1000).toISOString();

export const ollamaError: ErrorWriter = (ex, status, message) => {
  ex.json(status, { error: message ?? defaultErrorMessage(status) });
};

/** The timing and token counters of a final answer (nanoseconds, as Ollama reports durations). */
function stats(u: MockUsage | null): Record<string, number> {
  return {
    total_duration: 250_000_000,
    load_duration: 10_000_000,
    ...(u ? { prompt_eval_count: u.prompt, prompt_eval_duration: 20_000_000 } : {}),
    ...(u ? { eval_count: u.completion, eval_duration: 200_000_000 } : {}),
  };
}

/** POST /api/chat. */
export async function ollamaChat(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string' || body.model === '') return ollamaError(ex, 400, 'model is required');
  if (body.messages !== undefined && !Array.isArray(body.messages)) {
    return ollamaError(ex, 400, 'json: cannot unmarshal messages');
  }
  const d = parseDirectives(textOf(lastUser(body.messages, (r) => r === 'user')?.content));
  if (await ex.gate(d, ollamaError)) return;
  const pieces = d.tool ? [''] : replyPieces(d);
  const usage = usageOf(d, d.tool ? 2 : pieces.length);
  const line = (message: object, done: boolean, extra: object = {}) => ({
    model: body.model,
    created_at: CREATED_AT,
    message: { role: 'assistant', content: '', ...message },
    done,
    ...extra,
  });
  const toolCalls = d.tool
    ? [{ id: `call_mock_${ctx.n}`, function: { index: 0, name: d.tool, arguments: TOOL_ARGUMENTS } }]
    : undefined;
  const final = { done_reason: 'stop', ...stats(usage) };

  // Ollama streams unless told otherwise.
  if (body.stream === false) {
    if (!(await ex.beforeAnswer(d))) return;
    const message = toolCalls ? { tool_calls: toolCalls } : { content: pieces.join('') };
    return ex.json(200, line(message, true, final));
  }
  ex.begin(NDJSON);
  const write = (value: object) => ex.write(`${JSON.stringify(value)}\n`);
  const done = await ex.stream(pieces, d, (p) =>
    write(line(toolCalls ? { tool_calls: toolCalls } : { content: p }, false)),
  );
  if (!done) return;
  write(line({}, true, final));
  ex.end();
}

/** POST /api/embed {model, input: string | string[], dimensions?}. */
export async function ollamaEmbed(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string' || body.model === '') return ollamaError(ex, 400, 'model is required');
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input ?? ''];
  if (inputs.some((input) => typeof input !== 'string')) {
    return ollamaError(ex, 400, 'invalid input type');
  }
  const d = parseDirectives(inputs.join('\n'));
  if (await ex.gate(d, ollamaError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const dims = typeof body.dimensions === 'number' ? body.dimensions : 768;
  const usage = usageOf(d, 0);
  ex.json(200, {
    model: body.model,
    embeddings: inputs.map((input) => embeddingVector(String(input), dims)),
    total_duration: 50_000_000,
    load_duration: 5_000_000,
    ...(usage ? { prompt_eval_count: usage.prompt } : {}),
  });
}
