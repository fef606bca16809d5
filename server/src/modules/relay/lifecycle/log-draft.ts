/**
 * The log rows of model traffic (consume, type 2; error, type 5): one builder for the HTTP relay and
 * realtime sessions, so every row carries the same price fields in the same shape.
 */
import fastJson from 'fast-json-stringify';
import { LogType } from '../../../database/entities';
import type { LogDraft } from '../../billing';
import type { Price } from '../../billing';
import type { RelayContext } from '../relay-context';
import type { UsageCounts } from '../types';

export type DraftContext = Pick<
  RelayContext,
  'user' | 'token' | 'tokenName' | 'group' | 'model' | 'req' | 'content'
> & { price: Price };

export interface DraftArgs {
  channelId: number;
  quota: number;
  usage: UsageCounts;
  stream: boolean;
  /** Keys added to `other` after the price fields (never replacing them). */
  extra: Record<string, unknown>;
  startedAt: number;
  now: number;
  content?: string;
  /** The SDK family of the caller (`client_type`); omitted when unknown. */
  clientType?: string;
}

// A type list, so that null is written as null (a plain number type would write 0); the package's
// typings model single types only.
const num = { type: ['number', 'null'] } as unknown as { type: 'number' };
const flag = { type: 'boolean' } as const;
/**
 * The `other` column's text: its keys declared in the order consumeDraft sets them (the output is
 * JSON.stringify's, key order included), the rest (the caller's extra keys) after them as they come.
 * Serialised by a compiled schema, about half JSON.stringify's time on every logged call.
 */
const otherText: (other: Record<string, unknown>) => string = fastJson({
  type: 'object',
  properties: {
    group: { type: 'string' },
    client_type: { type: 'string' },
    model_ratio: num,
    model_price: num,
    completion_ratio: num,
    group_ratio: num,
    user_group_ratio: num,
    cache_tokens: num,
    cache_ratio: num,
    cache_creation_tokens: num,
    cache_creation_ratio: num,
    cache_creation_tokens_1h: num,
    cache_creation_1h_ratio: num,
    reasoning_tokens: num,
    audio: flag,
    audio_input: num,
    audio_output: num,
    image: flag,
    image_ratio: num,
    frt: num,
    admin_info: {
      type: 'object',
      properties: { use_channel: { type: 'array', items: num } },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
});

/**
 * `other` as text; a value the schema refuses (a NaN ratio) falls back to JSON.stringify's rendering.
 * The serialiser builds its text by concatenation: a rope of some fifty strings (about 1.3 KB of heap
 * for 340 characters) that would wait in the settlement queue until its batch is written, copied by
 * each young-generation collection on the way and then promoted. Reading a character flattens it into
 * one string (about 350 bytes) at once; the flattening happens anyway when SQLite binds the text.
 */
export function serialiseOther(other: Record<string, unknown>): string {
  let text: string;
  try {
    text = otherText(other);
  } catch {
    return JSON.stringify(other);
  }
  // The read is used (every object's text starts with `{`), so an optimising compiler cannot drop it.
  return text.charCodeAt(0) === 0x7b ? text : JSON.stringify(other);
}

/** A consume-log row: the call's tokens and charge, and in `other` the prices that made the charge. */
export function consumeDraft(ctx: DraftContext, a: DraftArgs): LogDraft {
  const p = ctx.price;
  const u = a.usage;
  // A fixed-shape literal first, the caller's extra keys after: spreading `extra` first would build
  // the object on V8's slow dictionary path (several µs per request).
  const other: Record<string, unknown> = {
    group: ctx.group,
    client_type: a.clientType,
    model_ratio: p.modelRatio,
    model_price: p.modelPrice,
    completion_ratio: p.completionRatio,
    group_ratio: p.groupRatio,
    user_group_ratio: p.userGroupRatio,
    cache_tokens: u.cached_tokens,
    cache_ratio: p.cacheRatio,
    cache_creation_tokens: u.cache_creation_tokens,
    cache_creation_ratio: p.cacheCreationRatio,
  };
  if (u.cache_creation_1h_tokens) {
    other.cache_creation_tokens_1h = u.cache_creation_1h_tokens;
    other.cache_creation_1h_ratio = p.cacheCreation1hRatio;
  }
  if (u.reasoning_tokens) other.reasoning_tokens = u.reasoning_tokens;
  if (u.audio_prompt_tokens || u.audio_completion_tokens) {
    other.audio = true;
    other.audio_input = u.audio_prompt_tokens ?? 0;
    other.audio_output = u.audio_completion_tokens ?? 0;
  }
  if (u.image_prompt_tokens) {
    other.image = true;
    other.image_ratio = p.imageRatio;
  }
  for (const k in a.extra) if (!(k in other)) other[k] = a.extra[k];
  // The call's request and answer are stored (content logs): the console offers them from this row.
  if (ctx.content) other.content_logged = true;
  return {
    user_id: ctx.user.id,
    created_at: Math.floor(a.startedAt / 1000),
    type: LogType.Consume,
    content: a.content ?? '',
    username: ctx.user.username,
    token_name: ctx.tokenName,
    token_id: ctx.token?.id ?? 0,
    model_name: ctx.model,
    quota: a.quota,
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    use_time: Math.max(0, Math.round((a.now - a.startedAt) / 1000)),
    is_stream: a.stream,
    channel_id: a.channelId,
    group: ctx.group,
    ip: ctx.req.ip,
    request_id: ctx.req.requestId,
    other: serialiseOther(other),
  };
}

/** An error-log row (type 5): no tokens, no charge, the refusal's message and status. */
export function errorDraft(
  ctx: DraftContext,
  a: Omit<DraftArgs, 'quota' | 'content'> & { status: number; message: string },
): LogDraft {
  return {
    ...consumeDraft(ctx, { ...a, quota: 0, extra: { ...a.extra, status_code: a.status } }),
    type: LogType.Error,
    content: a.message.slice(0, 2000),
  };
}
