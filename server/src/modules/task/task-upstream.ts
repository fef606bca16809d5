import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, Dispatcher, ProxyAgent, request } from 'undici';
import type { ChannelSnapshot } from '../relay/channel-selector';

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
