import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, Dispatcher, ProxyAgent, request } from 'undici';
import { OptionService } from '../option/option.service';
import { ChannelHealthService } from '../relay/channel-health.service';
import type { ChannelSnapshot } from '../relay/channel-selector';
import type { RelayError } from '../relay/errors';
import { RelayCacheService } from '../relay/relay-cache.service';
import type { RelayContext } from '../relay/relay-context';
import { networkError, pickChannel, upstreamStatusError } from './task-common';

/** Largest upstream answer read (task lists with many buttons and properties stay far below). */
const MAX_ANSWER = 8 * 1024 * 1024;

export interface UpstreamAnswer {
  status: number;
  text: string;
}

/**
 * Calls to task upstreams (Midjourney-proxy, Suno API). Channel addresses are set by administrators,
 * like every relay channel: the calls go through a keep-alive pool, or the channel's `setting.proxy`.
 */
@Injectable()
export class TaskUpstream implements OnModuleDestroy {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(
    private readonly cache: RelayCacheService,
    private readonly options: OptionService,
    private readonly health: ChannelHealthService,
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
    const retries =
      args.fixed || ctx.pinnedChannel !== null ? 0 : Math.max(0, this.options.num('RetryTimes'));
    const tried: number[] = [];
    let channel = args.first;
    let error: RelayError = networkError(new Error('no attempt'));
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        try {
          channel = pickChannel(this.cache, ctx, types, attempt, new Set(tried));
        } catch {
          break;
        }
      }
      tried.push(channel.id);
      let answer: UpstreamAnswer;
      try {
        answer = await this.call(channel, 'POST', args.path, args.body(channel), args.auth, args.timeoutMs);
      } catch (err) {
        error = networkError(err);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return { answer, channel, error };
      void this.health.onUpstreamError(channel, answer.status, answer.text);
      error = upstreamStatusError(answer);
      if (!error.retryable) break;
    }
    return { answer: null, channel, error };
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.agent.close(), ...[...this.proxies.values()].map((p) => p.close())]);
  }

  /** One of the channel's keys (several keys, one per line, are used in turn at random). */
  key(ch: ChannelSnapshot): string {
    return ch.keys.length > 1 ? ch.keys[Math.floor(Math.random() * ch.keys.length)] : (ch.keys[0] ?? '');
  }

  private dispatcher(ch: ChannelSnapshot): Dispatcher {
    const proxy = typeof ch.setting.proxy === 'string' ? ch.setting.proxy.trim() : '';
    if (!proxy) return this.agent;
    let p = this.proxies.get(proxy);
    if (!p) this.proxies.set(proxy, (p = new ProxyAgent(proxy)));
    return p;
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
    const key = this.key(ch);
    const headers: Record<string, string> = { accept: 'application/json', ...auth(key) };
    if (method === 'POST') headers['content-type'] = 'application/json';
    for (const [h, v] of Object.entries(ch.headerOverride))
      if (typeof v === 'string') headers[h] = v.replace('{api_key}', key);
    const res = await request(ch.baseUrl + path, {
      method,
      headers,
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      dispatcher: this.dispatcher(ch),
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
