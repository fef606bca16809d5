import type { IncomingHttpHeaders } from 'node:http';
import type { Price } from '../billing';
import type { ContentTap } from '../log';
import type { UserSnapshot } from '../user';
import type { TokenSnapshot } from './relay-cache.service';
import type { JsonObject, RelayMode, WireFormat } from './types';

/** One inbound model request, as the routes hand it to relay.service. */
export interface InboundRequest {
  /** The caller's wire format (errors and answers are written in it). */
  format: WireFormat;
  mode: RelayMode;
  /** Parsed JSON body (null for multipart and GET). */
  body: JsonObject | null;
  /** The raw body bytes (multipart passthrough). */
  raw: Buffer | null;
  contentType: string;
  /** The model named by the path (Gemini) or the multipart form; else read from the body. */
  pathModel: string | null;
  /** Gemini's :streamGenerateContent. */
  pathStream: boolean;
  /** Gemini's :streamGenerateContent without `alt=sse`: answered as a JSON array, not events. */
  jsonArray?: boolean;
  /** API key as sent (Bearer, x-api-key, x-goog-api-key, ?key=), or null for the playground. */
  key: string | null;
  ip: string;
  requestId: string;
  lang: 'zh' | 'en';
  userAgent: string;
  /** The client's request headers (a few are forwarded to an upstream of the same format). */
  headers?: IncomingHttpHeaders;
  /** The request path (`/v1/messages`, `/v1beta/models/m:generateContent`...), without the query. */
  path?: string;
  /** The last channel an attempt went to (set by relay.service; metrics label the answer with it). */
  channelId?: number;
}

/** Everything decided before the first upstream call. */
export interface RelayContext {
  req: InboundRequest;
  user: UserSnapshot;
  token: TokenSnapshot | null;
  tokenName: string;
  /** The group the request is served and priced in. */
  group: string;
  /** The model the caller asked for (billing and logs use it). */
  model: string;
  stream: boolean;
  /** Channel pinned with `sk-<key>-<id>` by an admin. */
  pinnedChannel: number | null;
  price: Price;
  /** Prompt tokens counted with the tokenizer, on first use (most requests never need it). */
  prompt(): number;
  /** A cheap upper bound of the prompt tokens (the body's size), for the trusted-balance check. */
  promptBound: number;
  startedAt: number;
  /** What the call writes to its caller, copied when its content is stored (content logs); absent otherwise. */
  content?: ContentTap | null;
}
