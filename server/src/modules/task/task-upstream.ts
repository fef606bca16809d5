import { Injectable } from '@nestjs/common';
import { Failover, RelayCacheService, RelayError, UpstreamClient } from '../relay';
import type { ChannelSnapshot, RelayContext } from '../relay';
import { request } from 'undici';
import { networkError, pickChannel, upstreamStatusError } from './task-common';
import type { UpstreamAnswer } from './task-common';

/** Largest upstream answer read (task lists with many buttons and properties stay far below). */
const MAX_ANSWER = 8 * 1024 * 1024;

export type { UpstreamAnswer } from './task-common';

/**
 * Calls to task upstreams (Midjourney-proxy, Suno API). Channel addresses are set by administrators,
 * like every relay channel: the calls go through the relay's upstream client (its keep-alive pool, or
 * the channel's `setting.proxy`) and its failover loop.
 */
@Injectable()
export class TaskUpstream {
  constructor(
    private readonly cache: RelayCacheService,
    private readonly failover: Failover,
    private readonly client: UpstreamClient,
  ) {}

  /**
   * A submit with failover: POST `path` to `first`; when the upstream itself failed (network, or a
   * retryable status), another channel of `types` is tried, up to RetryTimes (none when the channel is
   * fixed by the original task or pinned by an admin). Every tried channel's failure feeds its health.
   * Returns the answer and the channel that gave it, or no answer with the last error and channel.
   */
  async submit(args: {
    ctx: RelayContext;
    types: number[];
    first: ChannelSnapshot;
    fixed: boolean;
    path: string;
    body: (ch: ChannelSnapshot) => unknown;
    auth: (key: string) => Record<string, string>;
    timeoutMs: number;
  }): Promise<{ answer: UpstreamAnswer | null; channel: ChannelSnapshot; error: RelayError }> {
    const { ctx, types } = args;
    const result = await this.failover.run<ChannelSnapshot, UpstreamAnswer>({
      retries: this.failover.retries(args.fixed || ctx.pinnedChannel !== null),
      pick: (attempt, exclude) =>
        attempt === 0 ? args.first : pickChannel(this.cache, ctx, types, attempt, exclude),
      channelOf: (ch) => ch,
      run: async (ch) => {
        let answer: UpstreamAnswer;
        try {
          answer = await this.call(ch, 'POST', args.path, args.body(ch), args.auth, args.timeoutMs);
        } catch (err) {
          throw err instanceof RelayError ? err : networkError(err);
        }
        if (answer.status >= 200 && answer.status < 300) return answer;
        throw upstreamStatusError(answer);
      },
    });
    if (result.ok)
      return { answer: result.value, channel: result.attempt, error: networkError(new Error('no error')) };
    return {
      answer: null,
      channel: result.channel ?? args.first,
      error: result.error ?? networkError(new Error('no attempt')),
    };
  }

  /** One of the channel's keys (several keys, one per line, are used in turn at random). */
  key(ch: ChannelSnapshot): string {
    return this.client.key(ch);
  }

  /**
   * A JSON call to `path` under the channel's base URL. `auth` builds the credential headers from the
   * key; the channel's `header_override` applies on top ({api_key} replaced). Network failures throw.
   */
  async call(
    ch: ChannelSnapshot,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    auth: (key: string) => Record<string, string>,
    timeoutMs: number,
  ): Promise<UpstreamAnswer> {
    this.client.checkTarget(ch.baseUrl + path);
    const key = this.key(ch);
    const headers: Record<string, string> = { accept: 'application/json', ...auth(key) };
    if (method === 'POST') headers['content-type'] = 'application/json';
    for (const [h, v] of Object.entries(ch.headerOverride))
      if (typeof v === 'string') headers[h] = v.replace('{api_key}', key);
    const res = await request(ch.baseUrl + path, {
      method,
      headers,
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      dispatcher: this.client.dispatcher(ch),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER) {
        res.body.destroy();
        throw new Error(`answer larger than ${MAX_ANSWER} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  }
}
