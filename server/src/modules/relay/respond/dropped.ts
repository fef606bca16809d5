/**
 * Sampling hints a converted call left out (the carry table's `dropped` rows): named to the caller in
 * a response header and kept in the log's `other.dropped_params`.
 */
import type { ServerResponse } from 'node:http';
import { droppedFields } from '../formats/carry';
import { sameFormat, type Attempt } from '../lifecycle/attempt-plan';
import type { RelayContext } from '../relay-context';

export const DROPPED_HEADER = 'x-gatehouse-dropped-params';

/**
 * The fields of the caller's request this attempt's conversion left out; the header is set to them
 * (comma-separated), or removed when there are none (an earlier attempt on another channel may have
 * set it). Call before the answer's first byte.
 */
export function markDropped(ctx: RelayContext, a: Attempt, res: ServerResponse): string[] {
  const { req } = ctx;
  const dropped =
    req.body && (req.mode === 'chat' || req.mode === 'responses') && !sameFormat(ctx, a.adapter)
      ? droppedFields(req.format, a.adapter.format, req.body)
      : [];
  if (res.headersSent) return dropped;
  if (dropped.length > 0) res.setHeader(DROPPED_HEADER, dropped.join(', '));
  else if (res.hasHeader(DROPPED_HEADER)) res.removeHeader(DROPPED_HEADER);
  return dropped;
}
