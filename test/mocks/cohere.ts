/**
 * Cohere API v2 wire format: POST /v2/chat (JSON, or server-sent events named after their `type`),
 * /v2/embed and /v2/rerank; errors are `{"id", "message"}` with the HTTP status.
 *
 * Usage is reported twice, as Cohere does: `billed_units` (what is billed: the directive's P and C) and
 * `tokens` (what the model saw, the prompt including Cohere's prompt template, P + TEMPLATE_TOKENS).
 * A tool call comes with a tool plan, as command models write one before calling tools.
 */
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
import { Ctx, defaultErrorMessage, ErrorWriter, Exchange } from './exchange';
import { embeddingVector } from './openai-media';

/** Prompt tokens of Cohere's chat template, counted in `usage.tokens` but never billed. */
export const TEMPLATE_TOKENS = 64;
export const TOOL_PLAN = 'I will look up the weather.';

const API_VERSION = { version: '2', is_experimental: false };

export const cohereError: ErrorWriter = (ex, status, message) => {
  ex.json(status, { id: `cohere-error-${status}`, message: message ?? defaultErrorMessage(status) });
};

function invalid(ex: Exchange, message: string): void {
  cohereError(ex, 400, `invalid request: ${message}`);
}

function usageJson(u: MockUsage): Record<string, unknown> {
  return {
    billed_units: { input_tokens: u.prompt, output_tokens: u.completion },
    tokens: { input_tokens: u.prompt + TEMPLATE_TOKENS, output_tokens: u.completion },
  };
}

/** `event: <type>` + `data: <JSON with that type>`, how Cohere frames its v2 chat stream. */
function cohereEvent(type: string, data: object = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** POST /v2/chat. */
export async function cohereChat(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string') return invalid(ex, 'model must be provided');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return invalid(ex, 'messages must contain at least one message');
  }
  const d = parseDirectives(textOf(lastUser(body.messages, (r) => r === 'user')?.content));
  if (await ex.gate(d, cohereError)) return;
  const id = `cohere-chat-mock-${ctx.n}`;
  const callId = `${d.tool}_mock_${ctx.n}`;
  const pieces = d.tool ? TOOL_ARGUMENT_PIECES : replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const finish = d.tool ? 'TOOL_CALL' : 'COMPLETE';

  if (body.stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    const message = d.tool
      ? {
          role: 'assistant',
          tool_plan: TOOL_PLAN,
          tool_calls: [
            {
              id: callId,
              type: 'function',
              function: { name: d.tool, arguments: JSON.stringify(TOOL_ARGUMENTS) },
            },
          ],
        }
      : { role: 'assistant', content: [{ type: 'text', text: pieces.join('') }] };
    return ex.json(200, {
      id,
      message,
      finish_reason: finish,
      ...(usage ? { usage: usageJson(usage) } : {}),
    });
  }

  ex.begin('text/event-stream');
  const start = { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] };
  ex.write(cohereEvent('message-start', { id, delta: { message: start } }));
  let done: boolean;
  if (d.tool) {
    ex.write(cohereEvent('tool-plan-delta', { delta: { message: { tool_plan: TOOL_PLAN } } }));
    const call = { id: callId, type: 'function', function: { name: d.tool, arguments: '' } };
    ex.write(cohereEvent('tool-call-start', { index: 0, delta: { message: { tool_calls: call } } }));
    done = await ex.stream(pieces, d, (p) =>
      ex.write(
        cohereEvent('tool-call-delta', {
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: p } } } },
        }),
      ),
    );
    if (!done) return;
    ex.write(cohereEvent('tool-call-end', { index: 0 }));
  } else {
    ex.write(
      cohereEvent('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
    );
    done = await ex.stream(pieces, d, (p) =>
      ex.write(cohereEvent('content-delta', { index: 0, delta: { message: { content: { text: p } } } })),
    );
    if (!done) return;
    ex.write(cohereEvent('content-end', { index: 0 }));
  }
  const end = { finish_reason: finish, ...(usage ? { usage: usageJson(usage) } : {}) };
  ex.write(cohereEvent('message-end', { id, delta: end }));
  ex.end();
}

/** POST /v2/embed (float vectors; billed input tokens in meta). */
export async function cohereEmbed(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string') return invalid(ex, 'model must be provided');
  if (!Array.isArray(body.texts) && !Array.isArray(body.inputs)) {
    return invalid(ex, 'one of texts or inputs must be provided');
  }
  if (typeof body.input_type !== 'string') {
    return invalid(ex, 'input_type is required for embed models v3 and higher');
  }
  const texts: string[] = (body.texts ?? []).filter((t: unknown) => typeof t === 'string');
  const d = parseDirectives(texts.join('\n'));
  if (await ex.gate(d, cohereError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const dims = typeof body.output_dimension === 'number' ? body.output_dimension : 1024;
  const types: string[] = Array.isArray(body.embedding_types) ? body.embedding_types : ['float'];
  const vectors = texts.map((text) => embeddingVector(text, dims));
  const embeddings = Object.fromEntries(
    types.map((type) => [
      type,
      type === 'float' ? vectors : vectors.map((v) => v.map((x) => Math.round(x * 127))),
    ]),
  );
  const usage = usageOf(d, 0);
  ex.json(200, {
    id: `cohere-embed-mock-${ctx.n}`,
    embeddings,
    texts,
    meta: { api_version: API_VERSION, billed_units: { input_tokens: usage?.prompt ?? 0 } },
    response_type: 'embeddings_by_type',
  });
}

/** POST /v2/rerank: results by descending relevance, billed in search units (no token counts). */
export async function cohereRerank(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.model !== 'string') return invalid(ex, 'model must be provided');
  if (typeof body.query !== 'string') return invalid(ex, 'query must be provided');
  if (!Array.isArray(body.documents) || body.documents.some((doc: unknown) => typeof doc !== 'string')) {
    return invalid(ex, 'documents must be a list of strings');
  }
  const d = parseDirectives(body.query);
  if (await ex.gate(d, cohereError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const documents: string[] = body.documents;
  const all = documents.map((_, index) => ({
    index,
    relevance_score: Math.round(10_000 / (index + 1)) / 10_000,
  }));
  const results = typeof body.top_n === 'number' ? all.slice(0, body.top_n) : all;
  ex.json(200, {
    results,
    id: `cohere-rerank-mock-${ctx.n}`,
    meta: { api_version: API_VERSION, billed_units: { search_units: 1 } },
  });
}
