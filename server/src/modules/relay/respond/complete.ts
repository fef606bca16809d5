/**
 * Complete (non-stream) answers: JSON converted to the caller's format (or passed through untouched),
 * event streams folded into one answer, and binary bodies (speech, plain-text transcripts) piped.
 */
import type { ServerResponse } from 'node:http';
import { RelayError } from '../errors';
import { fromHubResponse, toHubResponse, usageOf } from '../formats';
import { embeddingsAnswerFor } from '../formats/gemini';
import { sameFormat, sameShape, type Attempt } from '../lifecycle/attempt-plan';
import type { RelayContext } from '../relay-context';
import { aggregateStream } from '../streaming/aggregate';
import type { JsonObject, UsageCounts, WireFormat } from '../types';
import { emptyUsage } from '../types';
import { readAnswer, upstreamError, type UpstreamResponse } from '../upstream/upstream-client';
import { textTokens } from '../usage';
import type { Outcome } from './outcome';
import { waitDrain, writeJson, writeText } from './write';

export async function relayJson(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse, deadlineAt: number): Promise<Outcome> {
  const text = await readAnswer(up, deadlineAt);
  let json: JsonObject;
  try {
    json = JSON.parse(text) as JsonObject;
  } catch {
    throw new RelayError(502, 'relay_upstream_failed', { reason: 'invalid JSON from upstream' }, '', null, true);
  }
  // An error sent with status 200 is an error: nothing is answered or charged, another channel may serve.
  const failure = errorIn200(a.adapter.format, json);
  if (failure) throw upstreamError(a, failure, text);
  const parsed = json;
  if (a.adapter.convertResponse) json = a.adapter.convertResponse(json, a.areq);
  const out = toClientFormat(ctx, a, json);
  const reported = usageOf(a.adapter.format === 'openai' && a.areq.mode.startsWith('responses') ? 'responses' : a.adapter.format, json);
  const usage = reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : estimateUsage(ctx, out);
  // An answer that needs no change (same format, same model name) goes out as the upstream's bytes.
  const untouched = json === parsed && (out === json || (out.model === json.model && sameShape(out, json)));
  if (untouched) writeText(res, 200, text);
  else writeJson(res, 200, out);
  return { usage, firstTokenMs: 0, extra: {} };
}

/** A non-stream request answered with an event stream (Dify agent apps): folded into one answer. */
export async function relayAggregated(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse): Promise<Outcome> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of up.body) chunks.push(chunk);
  const json = aggregateStream(a.adapter, a.areq, chunks);
  const out = toClientFormat(ctx, a, json);
  const reported = usageOf(a.adapter.format, json);
  const usage = reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : estimateUsage(ctx, out);
  writeJson(res, 200, out);
  return { usage, firstTokenMs: 0, extra: {} };
}

/** Speech audio and plain-text transcripts: piped with backpressure; billed by input text or transcript tokens. */
export async function relayBinary(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse): Promise<Outcome> {
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
  u.prompt_tokens = ctx.req.mode === 'speech' ? textTokens(typeof ctx.req.body?.input === 'string' ? ctx.req.body.input : '') : ctx.prompt();
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
  if ((format === 'openai' || format === 'responses') && ('choices' in json || 'output' in json || 'data' in json)) return 0;
  if (format === 'gemini' && 'candidates' in json) return 0;
  const e = err as JsonObject;
  const code = typeof e.code === 'number' ? e.code : typeof e.status === 'number' ? e.status : 0;
  if (code >= 400 && code <= 599) return code;
  return e.type === 'overloaded_error' ? 529 : 502;
}

/** Converts a complete answer from the channel's format to the caller's. */
function toClientFormat(ctx: RelayContext, a: Attempt, json: JsonObject): JsonObject {
  const from = a.adapter.format;
  if (ctx.req.mode === 'embeddings') return embeddingsAnswerFor(from, ctx.req.format, json, ctx.req.body ?? {}, ctx.model, () => ctx.prompt());
  if (ctx.req.mode !== 'chat' && ctx.req.mode !== 'responses') return json;
  if (sameFormat(ctx, a.adapter)) return from === 'openai' || from === 'responses' ? { ...json, model: ctx.model } : json;
  return fromHubResponse(ctx.req.format, toHubResponse(from, json, ctx.model), ctx.model);
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
