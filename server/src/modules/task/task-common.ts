import { createHmac, timingSafeEqual } from 'node:crypto';
import { RelayError, relayFail, sanitizeUpstreamText, selectChannel } from '../relay';
import type { ChannelSnapshot, RelayCacheService, RelayContext } from '../relay';

/**
 * The channel for a new task: the admin's pinned channel (sk-<key>-<id>), else the weighted choice
 * among the channels of the task's platform serving the model in the caller's group.
 */
export function pickChannel(
  cache: RelayCacheService,
  ctx: RelayContext,
  types: number[],
  attempt: number,
  exclude: ReadonlySet<number>,
): ChannelSnapshot {
  const index = cache.channels;
  if (ctx.pinnedChannel !== null) {
    const ch = index.byId.get(ctx.pinnedChannel);
    if (!ch?.enabled || !types.includes(ch.type)) throw relayFail(503, 'relay_pinned_channel_missing');
    return ch;
  }
  const ch = selectChannel(index, ctx.group, ctx.model, attempt, exclude, (c) => types.includes(c.type));
  if (!ch)
    throw relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model }, 'model_not_found');
  return ch;
}

/** The channel a follow-up acts through: the original task's own (only that upstream knows the task). */
export function originChannel(cache: RelayCacheService, channelId: number, types: number[]): ChannelSnapshot {
  const ch = cache.channels.byId.get(channelId);
  if (!ch?.enabled || !types.includes(ch.type))
    throw new RelayError(400, 'task_origin_channel_unavailable', {}, '', 'channel_unavailable');
  return ch;
}

/** Upstream statuses worth another channel (the key, the rate or the server, not the request). */
export const retryableStatus = (status: number): boolean =>
  status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;

/** The error of a non-2xx upstream answer: the caller's fault passes through, the upstream's is 502. */
/** A task upstream's answer: its status and body text. */
export interface UpstreamAnswer {
  status: number;
  text: string;
}

export function upstreamStatusError(a: UpstreamAnswer): RelayError {
  const reason = sanitizeUpstreamText(a.text.trim() || `status ${a.status}`).slice(0, 300);
  const status = a.status >= 400 && a.status < 500 && !retryableStatus(a.status) ? a.status : 502;
  return new RelayError(
    status,
    'task_upstream_failed',
    { reason },
    '',
    'upstream_error',
    retryableStatus(a.status),
    a.status,
  );
}

export function networkError(err: unknown): RelayError {
  const reason = sanitizeUpstreamText((err as Error)?.message || 'network error').slice(0, 300);
  return new RelayError(502, 'task_upstream_failed', { reason }, '', 'upstream_error', true);
}

/** The signature of the gateway's Midjourney callback address of a channel (`?channel=&sig=`). */
export function notifySignature(secret: string, channelId: number): string {
  return createHmac('sha256', secret).update(`mj-notify:${channelId}`).digest('hex').slice(0, 40);
}

export function signatureValid(secret: string, channelId: number, sig: string): boolean {
  const want = Buffer.from(notifySignature(secret, channelId));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** An http(s) URL of reasonable length, or null. */
export function httpUrl(v: string): string | null {
  if (!v || v.length > 2048) return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}
