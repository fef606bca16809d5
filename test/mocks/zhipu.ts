/**
 * Zhipu (ChatGLM) legacy v3 model API: POST /api/paas/v3/model-api/{model}/invoke and /sse-invoke,
 * body {prompt: [{role, content}], temperature?, top_p?, incremental?}, `Authorization: <JWT>`: an
 * HS256 JWT with header {alg, sign_type: "SIGN"} and payload {api_key, exp, timestamp} in
 * milliseconds, signed with the secret half of the "id.secret" key (checked when
 * `auth.signingKeys[id]` holds it).
 *
 * invoke → {code: 200, msg, success: true, data: {request_id, task_id, task_status, choices: [{role,
 * content}], usage}}, the content a quoted JSON string literal as v3 returns it. sse-invoke → SSE
 * without a space after the field colons: `event:add` events whose `data:` lines are the text (added
 * text by default, the whole text so far with incremental: false), then `event:finish` with a
 * non-standard `meta:` line {task_status, usage, task_id, request_id}. A text starting with a space
 * gets the separating space SSE readers strip. Errors come with HTTP 200 as {code, msg, success: false},
 * for streamed requests too (a JSON body).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lastUser, MockUsage, parseDirectives, replyPieces, textOf, usageOf } from './directives';
import { Ctx, defaultErrorMessage, ErrorWriter, Exchange, RecordedRequest } from './exchange';

/** Directive statuses → Zhipu codes (1214 bad parameter, 1002 bad token, 1113 arrears, 1302 rate limit). */
const CODES: Record<number, number> = { 400: 1214, 401: 1002, 403: 1113, 429: 1302, 500: 500 };

export const zhipuError: ErrorWriter = (ex, status, message) => {
  const code = CODES[status] ?? (status >= 500 ? 500 : 1214);
  ex.json(200, { code, msg: message ?? defaultErrorMessage(status), success: false });
};

function fail(ex: Exchange, code: number, msg: string): void {
  ex.json(200, { code, msg, success: false });
}

function tokenOf(record: RecordedRequest): string {
  const value = record.headers.authorization;
  return (Array.isArray(value) ? value[0] : (value ?? '')).replace(/^Bearer\s+/i, '');
}

function segment(part: string | undefined): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The key id (`api_key` claim) of a request's JWT: the credential `requireKey` is matched against. */
export function zhipuCredential(record: RecordedRequest): string | null {
  const claims = segment(tokenOf(record).split('.')[1]);
  return typeof claims?.api_key === 'string' ? claims.api_key : null;
}

/** Checks the JWT; answers Zhipu's auth error and returns false when it does not hold. */
function authorized(ctx: Ctx): boolean {
  const token = tokenOf(ctx.record);
  if (token === '') {
    fail(ctx.ex, 1001, 'Header中未收到Authorization参数，无法进行身份验证。');
    return false;
  }
  const [head, payload, signature] = token.split('.');
  const header = segment(head);
  const claims = segment(payload);
  if (
    header?.alg !== 'HS256' ||
    header.sign_type !== 'SIGN' ||
    typeof claims?.api_key !== 'string' ||
    !signature
  ) {
    fail(ctx.ex, 1002, 'Authorization Token非法，请确认Authorization Token正确传递。');
    return false;
  }
  if (typeof claims.exp !== 'number' || claims.exp < Date.now() || typeof claims.timestamp !== 'number') {
    fail(ctx.ex, 1003, 'Authorization Token已过期。');
    return false;
  }
  const secret = ctx.auth.signingKeys[claims.api_key];
  if (secret !== undefined) {
    const expected = createHmac('sha256', secret).update(`${head}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      fail(ctx.ex, 1000, '身份验证失败。');
      return false;
    }
  }
  return true;
}

function usageJson(u: MockUsage): Record<string, number> {
  return { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion };
}

/** `data:` lines of a text: one per line of it, a text starting with a space kept whole. */
function dataLines(text: string): string {
  return text
    .split('\n')
    .map((line) => `data:${line.startsWith(' ') ? ' ' : ''}${line}\n`)
    .join('');
}

/** POST /api/paas/v3/model-api/{model}/invoke and /sse-invoke. */
export async function zhipuInvoke(ctx: Ctx, stream: boolean): Promise<void> {
  const { ex, body } = ctx;
  if (!authorized(ctx)) return;
  if (!Array.isArray(body.prompt) || body.prompt.length === 0) return fail(ex, 1214, 'prompt参数非法');
  const d = parseDirectives(textOf(lastUser(body.prompt, (r) => r === 'user')?.content));
  if (await ex.gate(d, zhipuError)) return;
  const pieces = replyPieces(d);
  const usage = usageOf(d, pieces.length);
  const ids = {
    task_id: `mock-task-${ctx.n}`,
    request_id: typeof body.request_id === 'string' ? body.request_id : `mock-${ctx.n}`,
  };

  if (!stream) {
    if (!(await ex.beforeAnswer(d))) return;
    return ex.json(200, {
      code: 200,
      msg: '操作成功',
      data: {
        ...ids,
        task_status: 'SUCCESS',
        choices: [{ role: 'assistant', content: JSON.stringify(pieces.join('')) }],
        ...(usage ? { usage: usageJson(usage) } : {}),
      },
      success: true,
    });
  }
  const incremental = body.incremental !== false;
  let sent = '';
  ex.begin('text/event-stream;charset=UTF-8');
  const done = await ex.stream(pieces, d, (p) => {
    sent += p;
    ex.write(`event:add\nid:${ids.task_id}\n${dataLines(incremental ? p : sent)}\n`);
  });
  if (!done) return;
  const meta = { task_status: 'SUCCESS', ...(usage ? { usage: usageJson(usage) } : {}), ...ids };
  ex.write(`event:finish\nid:${ids.task_id}\ndata:\nmeta:${JSON.stringify(meta)}\n\n`);
  ex.end();
}
