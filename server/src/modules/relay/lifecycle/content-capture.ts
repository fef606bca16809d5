/**
 * The relay's side of content logs (opt-in): whether a call is captured, and what is handed to the
 * content-log service once it is over. A call of a token, user or channel without content logging
 * costs one boolean check (see relay.service).
 */
import type { ServerResponse } from 'node:http';
import { ContentLogService } from '../../log';
import type { ChannelSnapshot } from '../channel-selector';
import type { RelayContext } from '../relay-context';

/** At admission: the token or the user stores content. Only asked when some token or user does. */
export function captureAtAdmission(content: ContentLogService, ctx: RelayContext, res: ServerResponse): void {
  if (content.wants(ctx.token?.id ?? 0, ctx.user.id)) ctx.content = content.tap(res);
}

/** At an attempt: the channel stores content (its setting `content_log: true`). */
export function captureForChannel(
  content: ContentLogService,
  ctx: RelayContext,
  channel: ChannelSnapshot,
  res: ServerResponse,
): void {
  if (ContentLogService.channelWants(channel.setting)) ctx.content = content.tap(res);
}

/** The call is over (answered or refused, `res` ended): its content goes to the next batch. */
export function recordContent(
  content: ContentLogService,
  ctx: RelayContext,
  channel: ChannelSnapshot | null,
  res: ServerResponse,
): void {
  const tap = ctx.content;
  if (!tap) return;
  const req = ctx.req;
  content.record(
    {
      requestId: req.requestId,
      userId: ctx.user.id,
      startedAt: ctx.startedAt,
      format: req.format,
      mode: req.mode,
      path: req.path ?? '',
      stream: ctx.stream,
      body: req.body,
      multipart: req.contentType.toLowerCase().startsWith('multipart/'),
      headers: req.headers,
      secrets: [req.key ?? '', ...(channel?.keys ?? [])],
      channelId: channel?.id ?? 0,
    },
    tap,
    res,
  );
}
