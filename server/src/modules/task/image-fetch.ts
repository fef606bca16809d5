import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { AddressPolicy, BlockedAddressError } from '../../common/safe-http';

export interface FetchedImage {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * Fetches a task's result image (an address the upstream reported) for the image proxy, as bytes,
 * under the same SSRF policy as the common safe client (`common/safe-http.ts`, which reads text
 * only): every hop's address is resolved and checked, the socket connects to the checked address, and
 * redirects are followed by hand so each target is checked again.
 */
export class SafeImageClient {
  private readonly agent: Agent;

  constructor(private readonly policy: AddressPolicy) {
    this.agent = new Agent({
      connect: {
        lookup: (hostname, options, callback) => {
          dnsLookup(hostname, { all: true, family: options.family }, (err, addresses: LookupAddress[]) => {
            if (err) return callback(err, '', 4);
            const allowed = addresses.find((a) => this.policy(a.address));
            if (!allowed) return callback(new BlockedAddressError(hostname), '', 4);
            callback(null, allowed.address, allowed.family);
          });
        },
      },
    });
  }

  async get(
    url: string,
    opts: { timeoutMs: number; maxBytes: number; maxRedirects?: number },
  ): Promise<FetchedImage> {
    let current = new URL(url);
    const maxRedirects = opts.maxRedirects ?? 3;
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:')
        throw new Error(`unsupported scheme ${current.protocol}`);
      const host = current.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !this.policy(host)) throw new BlockedAddressError(host);
      const res = await request(current, {
        dispatcher: this.agent,
        method: 'GET',
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        if (hop >= maxRedirects) throw new Error('too many redirects');
        current = new URL(location, current);
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > opts.maxBytes) {
          res.body.destroy();
          throw new Error(`image larger than ${opts.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const type = res.headers['content-type'];
      return {
        status: res.statusCode,
        contentType: typeof type === 'string' ? type : '',
        body: Buffer.concat(chunks),
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
