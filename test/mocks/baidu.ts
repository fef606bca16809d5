/**
 * Baidu Wenxin Workshop, legacy API (aip.baidubce.com):
 *  - POST /oauth/2.0/token?grant_type=client_credentials&client_id=API_KEY&client_secret=SECRET_KEY
 *    → {access_token, expires_in, ...}; a wrong secret (when `auth.signingKeys[API_KEY]` holds the
 *    secret key) is OAuth's 401 {error: "invalid_client", error_description}.
 *  - POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=… {messages, system?,
 *    stream?, functions?...} → {id, object, created, result, is_truncated, need_clear_history,
 *    finish_reason, usage}; streamed as SSE `data:` events of the same shape with sentence_id and
 *    is_end (usage counts so far in each). With `functions`, [[tool=name]] answers a function_call.
 *  - POST /rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/{endpoint}?access_token=… {input: string[]}.
 * Errors come with HTTP 200 as {error_code, error_msg}, also for streamed requests (a JSON body).
 */
import { MockUsage, parseDirectives, replyPieces, textOf, TOOL_ARGUMENTS, usageOf } from './directives';
import { CREATED, Ctx, defaultErrorMessage, ErrorWriter, Exchange, sseData } from './exchange';
import { embeddingVector } from './openai-media';

export const WENXIN = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

/** Directive statuses → Baidu error codes (110 invalid token, 6 no permission, 18 QPS limit...). */
const CODES: Record<number, number> = { 400: 336003, 401: 110, 403: 6, 429: 18, 500: 336000, 503: 336100 };

export function baiduErrorCode(status: number): number {
  return CODES[status] ?? (status >= 500 ? 336000 : 336003);
}

export const baiduError: ErrorWriter = (ex, status, message) => {
  const code = baiduErrorCode(status);
  const text =
    message ?? (code === 110 ? 'Access token invalid or no longer valid' : defaultErrorMessage(status));
  ex.json(200, { error_code: code, error_msg: text });
};

function invalid(ex: Exchange, message: string): void {
  ex.json(200, { error_code: 336003, error_msg: message });
}

/** POST /oauth/2.0/token (client credentials in the query). */
export function baiduToken(ctx: Ctx): void {
  const { ex, record } = ctx;
  const { grant_type: grant, client_id: apiKey, client_secret: secretKey } = record.query;
  if (grant !== 'client_credentials') {
    return ex.json(400, {
      error: 'unsupported_grant_type',
      error_description: 'The authorization grant type is not supported',
    });
  }
  if (!apiKey) return ex.json(400, { error: 'invalid_client', error_description: 'unknown client id' });
  const known = ctx.auth.signingKeys[apiKey];
  if (!secretKey || (known !== undefined && known !== secretKey)) {
    return ex.json(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
  }
  const token = `24.mock${ctx.n}.2592000.${CREATED}.${apiKey.length}-mock`;
  ctx.auth.issued.set(token, apiKey);
  ex.json(200, {
    refresh_token: `25.mock${ctx.n}.315360000.${CREATED}`,
    expires_in: 2_592_000,
    session_key: 'mock-session-key',
    access_token: token,
    scope: 'public brain_all_scope wenxinworkshop_mgr ai_custom_yiyan_com',
    session_secret: 'mock-session-secret',
  });
}

/** Checks the access_token query parameter; answers Baidu's error 110 (HTTP 200) when it is unknown. */
function tokenValid(ctx: Ctx): boolean {
  if (ctx.auth.issued.has(ctx.record.query.access_token ?? '')) return true;
  baiduError(ctx.ex, 401);
  return false;
}

function usageJson(u: MockUsage | null, completion: number): Record<string, number> {
  const prompt = u?.prompt ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** ERNIE function calling: `functions` [{name, description?, parameters}], tool_choice, function turns. */
interface FunctionBody {
  functions?: unknown;
  tool_choice?: { type?: unknown; function?: { name?: unknown } } | null;
}

function checkFunctions(body: FunctionBody, messages: unknown[]): string | null {
  if (body.functions !== undefined) {
    if (!Array.isArray(body.functions) || body.functions.length === 0)
      return 'functions must be a non-empty list';
    for (const f of body.functions as Array<Record<string, unknown> | null>) {
      if (typeof f?.name !== 'string' || f.name === '') return 'functions[].name is required';
      if (f.parameters === null || typeof f.parameters !== 'object')
        return 'functions[].parameters must be an object';
    }
  }
  if (body.tool_choice !== undefined) {
    const choice = body.tool_choice;
    const names = Array.isArray(body.functions) ? body.functions.map((f: { name?: unknown }) => f?.name) : [];
    if (choice?.type !== 'function' || !names.includes(choice.function?.name)) {
      return 'tool_choice must name one of the functions';
    }
  }
  for (const m of messages as Array<Record<string, unknown>>) {
    if (m.role === 'function' && (typeof m.name !== 'string' || m.name === ''))
      return 'a function message needs its name';
    const call = m.function_call as { name?: unknown; arguments?: unknown } | undefined;
    if (call !== undefined && (typeof call?.name !== 'string' || typeof call.arguments !== 'string')) {
      return 'function_call needs a name and arguments string';
    }
  }
  return null;
}

/** POST …/chat/{endpoint}. */
export async function baiduChat(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (!tokenValid(ctx)) return;
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  if (messages.length === 0) return invalid(ex, 'the messages should not be empty');
  if (messages.length % 2 === 0) return invalid(ex, 'the length of messages must be an odd number');
  const roles = messages.map((m) => (m as { role?: unknown } | null)?.role);
  // Odd turns (1st, 3rd...) are user or function turns, even ones assistant; the first is a user turn.
  if (
    roles.some((role, i) =>
      i % 2 === 0 ? role !== 'user' && (role !== 'function' || i === 0) : role !== 'assistant',
    )
  ) {
    return invalid(ex, 'the role of message with odd index in the messages must be assistant');
  }
  const functionError = checkFunctions(body, messages);
  if (functionError) return invalid(ex, functionError);
  const last = messages.at(-1) as { content?: unknown };
  const d = parseDirectives(textOf(last.content));
  if (await ex.gate(d, baiduError)) return;
  const call = d.tool && Array.isArray(body.functions) ? d.tool : undefined;
  const pieces = call ? [''] : replyPieces(d);
  const usage = usageOf(d, call ? 2 : pieces.length);
  const base = { id: `as-mock${ctx.n}`, object: 'chat.completion', created: CREATED };
  const functionCall = call && {
    name: call,
    thoughts: 'The user asks for the weather; calling the weather function.',
    arguments: JSON.stringify(TOOL_ARGUMENTS),
  };

  if (body.stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    return ex.json(200, {
      ...base,
      result: pieces.join(''),
      is_truncated: false,
      need_clear_history: false,
      finish_reason: call ? 'function_call' : 'normal',
      ...(functionCall ? { function_call: functionCall } : {}),
      usage: usageJson(usage, usage?.completion ?? 0),
    });
  }
  ex.begin('text/event-stream;charset=utf-8');
  const total = usage?.completion ?? 0;
  const done = await ex.stream(pieces, d, (p, i) => {
    const end = i === pieces.length - 1;
    ex.write(
      sseData({
        ...base,
        sentence_id: i,
        is_end: end,
        is_truncated: false,
        result: p,
        need_clear_history: false,
        finish_reason: end ? (call ? 'function_call' : 'normal') : '',
        ...(end && functionCall ? { function_call: functionCall } : {}),
        usage: usageJson(usage, end ? total : Math.floor((total * (i + 1)) / pieces.length)),
      }),
    );
  });
  if (done) ex.end();
}

/** POST …/embeddings/{endpoint}. */
export async function baiduEmbeddings(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (!tokenValid(ctx)) return;
  if (!Array.isArray(body.input) || body.input.length === 0)
    return invalid(ex, 'the input should not be empty');
  const inputs: string[] = body.input.map(String);
  const d = parseDirectives(inputs.join('\n'));
  if (await ex.gate(d, baiduError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const usage = usageOf(d, 0);
  ex.json(200, {
    id: `as-mock${ctx.n}`,
    object: 'embedding_list',
    created: CREATED,
    data: inputs.map((input, index) => ({
      object: 'embedding',
      embedding: embeddingVector(input, 384),
      index,
    })),
    usage: usageJson(usage, 0),
  });
}
