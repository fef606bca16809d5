/**
 * Complete (non-stream) answers: JSON converted to the caller's format (or passed through untouched),
 * event streams folded into one answer, and binary bodies (speech, plain-text transcripts) piped.
 */
import type { ServerResponse } from 'node:http';
import { RelayError } from '../errors';
import { fromHubResponse, toHubResponse, usageOf } from '../formats';
import { embeddingsAnswerFor } from '../formats/gemini';
import { errorKeyAt, usageKeyAt, withModelName } from '../formats/json';
import { sameFormat, sameShape, type Attempt } from '../lifecycle/attempt-plan';
import type { RelayContext } from '../relay-context';
import { aggregateStream } from '../streaming/aggregate';
import type { JsonObject, UsageCounts, WireFormat } from '../types';
import { emptyUsage } from '../types';
import { readAnswer, upstreamError, type UpstreamResponse } from '../upstream/upstream-client';
import { textTokens } from '../usage';
import { markDropped } from './dropped';
import type { Outcome } from './outcome';
import { waitDrain, writeJson, writeText } from './write';

/** Complete answers larger than this that need no conversion go out as they arrive, not buffered. */
const PASS_THROUGH_OVER = 1024 * 1024;

export async function relayJson(
  ctx: RelayContext,
  a: Attempt,
  up: UpstreamResponse,
  res: ServerResponse,
  deadlineAt: number,
): Promise<Outcome> {
  const declared = Number(up.headers['content-length'] ?? -1);
  if (declared > PASS_THROUGH_OVER && passable(ctx, a)) return relayLarge(ctx, a, up, res, deadlineAt);
  const text = await readAnswer(up, deadlineAt);
  // Chat only: a completions answer keeps the upstream's model name (see toClientFormat).
  const quick =
    ctx.req.format === 'openai' && ctx.req.mode === 'chat' && passable(ctx, a) && passedOn(ctx, text);
  if (quick) {
    writeText(res, 200, quick.text);
    return { usage: quick.usage, firstTokenMs: 0, extra: {} };
  }
  let json: JsonObject;
  try {
    json = JSON.parse(text) as JsonObject;
  } catch {
    throw RelayError.badUpstreamJson();
  }
  // An error sent with status 200 is an error: nothing is answered or charged, another channel may serve.
  const failure = errorIn200(a.adapter.format, json);
  if (failure) throw upstreamError(a, failure, text);
  const parsed = json;
  if (a.adapter.convertResponse) json = a.adapter.convertResponse(json, a.areq);
  const out = toClientFormat(ctx, a, json);
  const reported = usageOf(
    a.adapter.format === 'openai' && a.areq.mode.startsWith('responses') ? 'responses' : a.adapter.format,
    json,
  );
  const usage =
    reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : estimateUsage(ctx, out);
  const dropped = markDropped(ctx, a, res);
  // An answer that needs no change (same format, same model name) goes out as the upstream's bytes.
  const same = json === parsed && (out === json || sameShape(out, json));
  if (same && (out === json || out.model === json.model)) writeText(res, 200, text);
  else {
    // Only the model name differs (an upstream's dated name, a mapped model): replaced in the text.
    const renamed = same && typeof out.model === 'string' ? withModelName(text, out.model) : null;
    if (renamed !== null) writeText(res, 200, renamed);
    else writeJson(res, 200, out);
  }
  return { usage, firstTokenMs: 0, extra: dropped.length > 0 ? { dropped_params: dropped } : {} };
}

/**
 * An OpenAI chat answer to an OpenAI caller passed on without parsing it whole: its usage read from the
 * end, the model name replaced in place. Null (the answer is parsed) when it mentions an error, or its
 * usage or model member is not found exactly once with nothing escaped that could hide another.
 */
function passedOn(ctx: RelayContext, text: string): { text: string; usage: UsageCounts } | null {
  if (errorKeyAt(text) >= 0 || text.includes('\\u007')) return null;
  const at = text.lastIndexOf('"usage"');
  if (at < 0 || usageKeyAt(text) !== at) return null;
  const usage = usageFromTail('openai', text, at);
  if (!usage || usage.prompt_tokens + usage.completion_tokens <= 0) return null;
  const named = withModelName(text, ctx.model);
  return named === null ? null : { text: named, usage };
}

/** The answer needs no conversion: same wire format, no adapter rewrite, chat-like JSON. */
function passable(ctx: RelayContext, a: Attempt): boolean {
  // The OpenAI adapter rewrites only rerank answers; any other adapter's rewrite needs the whole answer.
  const rewrites = !!a.adapter.convertResponse && !(a.adapter.name === 'openai' && ctx.req.mode !== 'rerank');
  return !rewrites && sameFormat(ctx, a.adapter) && ctx.req.format === a.adapter.format;
}

/**
 * A large complete answer passed through as it arrives (memory stays flat whatever its size): the
 * model name is set to the caller's in the first bytes, the usage is read from the last ones (every
 * format puts it at the end of the object).
 */
async function relayLarge(
  ctx: RelayContext,
  a: Attempt,
  up: UpstreamResponse,
  res: ServerResponse,
  deadlineAt: number,
): Promise<Outcome> {
  let timer: NodeJS.Timeout | null = null;
  let late = false;
  if (deadlineAt > 0)
    timer = setTimeout(
      () => {
        late = true;
        up.body.destroy();
      },
      Math.max(0, deadlineAt - Date.now()),
    );
  let head = true;
  let tail = '';
  let started = false;
  try {
    for await (const chunk of up.body) {
      let piece = (chunk as Buffer).toString('latin1');
      if (head) {
        head = false;
        piece = piece.replace(
          /("model"\s*:\s*)"(?:[^"\\]|\\.)*"/,
          (_m, k: string) => k + Buffer.from(JSON.stringify(ctx.model), 'utf8').toString('latin1'),
        );
        res.statusCode = 200;
        res.setHeader('content-type', String(up.headers['content-type'] ?? 'application/json'));
        started = true;
      }
      tail = (tail + piece).slice(-TAIL);
      if (!res.write(Buffer.from(piece, 'latin1'))) await waitDrain(res);
    }
  } catch (err) {
    if (!started) {
      if (late) throw RelayError.timeout('the upstream stopped sending its answer');
      throw RelayError.cutShort();
    }
    // Part of the answer went out: the caller sees it cut; the prompt is charged.
    res.destroy(err as Error);
    const u = emptyUsage();
    u.prompt_tokens = ctx.prompt();
    return { usage: u, firstTokenMs: 0, extra: { answer_interrupted: true } };
  } finally {
    if (timer) clearTimeout(timer);
  }
  res.end();
  const usage = usageFromTail(a.adapter.format, Buffer.from(tail, 'latin1').toString('utf8'));
  return { usage: usage ?? estimateUsage(ctx, {}), firstTokenMs: 0, extra: { passed_through: true } };
}

const TAIL = 64 * 1024;

/**
 * The usage object at the end of an answer's text (`"usage"` or Gemini's `"usageMetadata"`); null when
 * the last such key's value is not an object (`"usage": null`, say). `at`: where the caller found that
 * last key already.
 */
export function usageFromTail(format: WireFormat, tail: string, at = -1): UsageCounts | null {
  const key = format === 'gemini' ? '"usageMetadata"' : '"usage"';
  if (at < 0) at = tail.lastIndexOf(key);
  if (at < 0) return null;
  // `:` and `{` after the key, JSON whitespace around the colon (character codes: no string per character).
  let open = skipSpace(tail, at + key.length);
  if (tail.charCodeAt(open) !== 0x3a) return null;
  open = skipSpace(tail, open + 1);
  if (tail.charCodeAt(open) !== 0x7b) return null;
  // The closing brace found by the braces alone first (a few searches; usage objects hold numbers and
  // objects of numbers): a brace inside a string would put the end inside a string or before text
  // that follows the object, and either fails to parse, so a parse that succeeds read exactly the
  // object. Then character by character, strings skipped.
  const end = braceEnd(tail, open);
  const fast = end < 0 ? undefined : parseUsage(format, tail.slice(open, end + 1));
  if (fast !== undefined) return fast;
  let depth = 0;
  let inString = false;
  for (let i = open; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return parseUsage(format, tail.slice(open, i + 1)) ?? null;
  }
  return null;
}

/** The usage in an object's text; undefined when the text is not JSON. */
function parseUsage(format: WireFormat, text: string): UsageCounts | null | undefined {
  let value: JsonObject;
  try {
    value = JSON.parse(text) as JsonObject;
  } catch {
    return undefined;
  }
  return usageOf(
    format,
    (format === 'gemini' ? { usageMetadata: value } : { usage: value }) as unknown as JsonObject,
  );
}

/** The `}` that balances the `{` at `open`, counting braces only (strings not told apart); -1 if none. */
function braceEnd(text: string, open: number): number {
  let depth = 0;
  let next = open;
  for (let from = open; ;) {
    const close = text.indexOf('}', from);
    if (close < 0) return -1;
    for (; next >= 0 && next < close; next = text.indexOf('{', next + 1)) depth++;
    if (--depth === 0) return close;
    from = close + 1;
  }
}

/** The index of the first character at or after `i` that is not JSON whitespace. */
function skipSpace(text: string, i: number): number {
  for (
    let c = text.charCodeAt(i);
    c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
    c = text.charCodeAt(++i)
  );
  return i;
}

/** A non-stream request answered with an event stream (Dify agent apps): folded into one answer. */
export async function relayAggregated(
  ctx: RelayContext,
  a: Attempt,
  up: UpstreamResponse,
  res: ServerResponse,
): Promise<Outcome> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of up.body) chunks.push(chunk as Buffer);
  const json = aggregateStream(a.adapter, a.areq, chunks);
  const out = toClientFormat(ctx, a, json);
  const reported = usageOf(a.adapter.format, json);
  const usage =
    reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : estimateUsage(ctx, out);
  const dropped = markDropped(ctx, a, res);
  writeJson(res, 200, out);
  return { usage, firstTokenMs: 0, extra: dropped.length > 0 ? { dropped_params: dropped } : {} };
}

/** Speech audio and plain-text transcripts: piped with backpressure; billed by input text or transcript tokens. */
export async function relayBinary(
  ctx: RelayContext,
  a: Attempt,
  up: UpstreamResponse,
  res: ServerResponse,
): Promise<Outcome> {
  res.statusCode = 200;
  const ct = up.headers['content-type'];
  if (ct) res.setHeader('content-type', ct);
  let text = '';
  for await (const chunk of up.body) {
    const b = chunk as Buffer;
    if (ctx.req.mode !== 'speech' && text.length < 1_000_000) text += b.toString('utf8');
    if (!res.write(b)) await waitDrain(res);
  }
  res.end();
  const u = emptyUsage();
  u.prompt_tokens =
    ctx.req.mode === 'speech'
      ? textTokens(typeof ctx.req.body?.input === 'string' ? ctx.req.body.input : '')
      : ctx.prompt();
  u.completion_tokens = ctx.req.mode === 'speech' ? 0 : textTokens(text);
  return { usage: u, firstTokenMs: 0, extra: {} };
}

/**
 * The status an answer carries when it is an error in a 200 (OpenAI `{error}`, Anthropic
 * `{type: "error"}`, Gemini `{error: {code}}`), or 0 for a real answer.
 */
export function errorIn200(format: WireFormat, json: JsonObject): number {
  const err = json.error;
  if (!err || typeof err !== 'object' || Array.isArray(err)) return 0;
  if (format === 'anthropic' && json.type !== 'error') return 0;
  if (
    (format === 'openai' || format === 'responses') &&
    ('choices' in json || 'output' in json || 'data' in json)
  )
    return 0;
  if (format === 'gemini' && 'candidates' in json) return 0;
  const e = err as JsonObject;
  const code = typeof e.code === 'number' ? e.code : typeof e.status === 'number' ? e.status : 0;
  if (code >= 400 && code <= 599) return code;
  return e.type === 'overloaded_error' ? 529 : 502;
}

/** Converts a complete answer from the channel's format to the caller's. */
function toClientFormat(ctx: RelayContext, a: Attempt, json: JsonObject): JsonObject {
  const from = a.adapter.format;
  if (ctx.req.mode === 'embeddings')
    return embeddingsAnswerFor(from, ctx.req.format, json, ctx.req.body ?? {}, ctx.model, () => ctx.prompt());
  if (ctx.req.mode !== 'chat' && ctx.req.mode !== 'responses') return json;
  if (sameFormat(ctx, a.adapter))
    return from === 'openai' || from === 'responses' ? { ...json, model: ctx.model } : json;
  return fromHubResponse(
    ctx.req.format,
    toHubResponse(from, json, ctx.model),
    ctx.model,
    ctx.req.body ?? undefined,
  );
}

function estimateUsage(ctx: RelayContext, out: JsonObject): UsageCounts {
  const u = emptyUsage();
  u.prompt_tokens = ctx.prompt();
  const choices = Array.isArray(out.choices) ? out.choices : [];
  let text = typeof out.text === 'string' ? out.text : '';
  for (const c of choices) {
    const msg = (c as JsonObject)?.message as JsonObject | undefined;
    if (msg && typeof msg.content === 'string') text += msg.content;
  }
  u.completion_tokens = textTokens(text);
  return u;
}
