import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import ipaddr from 'ipaddr.js';
import { Agent, Dispatcher, request } from 'undici';

type LookupFn = (
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** The name resolver the guard asks (replaceable in tests to play a rebinding DNS server). */
export const resolver: { lookup: typeof dnsLookup } = { lookup: dnsLookup };

/**
 * A `lookup` for sockets (undici, http, ws, net) that resolves the name once, checks every address
 * against the policy and hands the socket the very address it checked: no second answer of a
 * rebinding DNS server can slip in between the check and the connection.
 */
export function guardedLookup(policy: AddressPolicy): LookupFn {
  return (hostname, options, callback) => {
    const family = typeof options.family === 'number' ? options.family : 0;
    resolver.lookup(hostname, { all: true, family }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const allowed = addresses.find((a) => policy(a.address));
      if (!allowed) return callback(new BlockedAddressError(hostname), '', 4);
      if (options.all) return callback(null, [allowed]);
      callback(null, allowed.address, allowed.family);
    });
  };
}

/** A URL whose host is a literal IP is checked here (a literal never reaches the lookup). */
export function checkLiteralHost(u: URL, policy: AddressPolicy): void {
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !policy(host)) throw new BlockedAddressError(host);
}

/** The refusal inside an error (undici and ws wrap the lookup's error as the cause of theirs). */
export function blockedIn(err: unknown): BlockedAddressError | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof BlockedAddressError) return e;
  return null;
}

/** Decides whether an address may be connected to. */
export type AddressPolicy = (ip: string) => boolean;

/** Only globally routable unicast addresses: no loopback, private, link-local, CGNAT, multicast, reserved... */
export const publicOnly: AddressPolicy = (ip) => {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === 'unicast';
};

export const anyAddress: AddressPolicy = () => true;

export class BlockedAddressError extends Error {
  constructor(readonly target: string) {
    super(`refused to connect to a non-public address (${target})`);
    this.name = 'BlockedAddressError';
  }
}

export interface SafeRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: number;
}

export interface SafeResponse<B = string> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: B;
  url: string;
}

/**
 * A fetch proxy ("worker", e.g. a Cloudflare Worker) that performs outbound calls for the gateway:
 * the gateway POSTs `{url, key, method, headers, body}` to `url` and takes the answer as the target's.
 */
export interface OutboundWorker {
  url: string;
  key: string;
}

/** Where the worker settings are read (the live options: WorkerUrl and WorkerValidKey). */
export interface WorkerSettings {
  get(key: 'WorkerUrl' | 'WorkerValidKey'): string;
}

/** The worker the settings name, or null when WorkerUrl is empty (calls then go direct). */
export function workerOf(settings: WorkerSettings | undefined): OutboundWorker | null {
  const url = settings?.get('WorkerUrl').trim() ?? '';
  return url ? { url, key: settings?.get('WorkerValidKey') ?? '' } : null;
}

/**
 * The one client for outbound calls whose address a user can influence (webhooks, image URLs, OIDC
 * discovery). Every hop is resolved and checked against the policy; the socket connects to the very
 * address that was checked (no second DNS answer can sneak in), and redirects are followed by hand so
 * each new target is checked again.
 */
export class SafeHttpClient {
  private readonly agent: Dispatcher;
  /** Connects to the worker, which root configured and which may be at any address. */
  private readonly workerAgent: Dispatcher;

  /**
   * The client an application configuration asks for: its address policy and extra trusted CAs.
   * With `worker` (the live options), calls go through the proxy worker whenever WorkerUrl is set.
   */
  static forConfig(
    config: { allowPrivateOutbound: boolean; outboundCa: string | null },
    worker?: WorkerSettings,
  ): SafeHttpClient {
    return new SafeHttpClient(
      config.allowPrivateOutbound ? anyAddress : publicOnly,
      config.outboundCa,
      worker,
    );
  }

  /** `extraCa`: PEM certificates trusted for HTTPS besides the public roots (a company CA). */
  constructor(
    private readonly policy: AddressPolicy = publicOnly,
    extraCa: string | null = null,
    private readonly worker?: WorkerSettings,
  ) {
    const ca = extraCa ? { ca: [...rootCertificates, extraCa] } : {};
    this.agent = new Agent({ connect: { ...ca, lookup: guardedLookup(policy) } });
    this.workerAgent = new Agent({ connect: ca });
  }

  async fetch(url: string, opts: SafeRequestOptions = {}): Promise<SafeResponse> {
    const res = await this.fetchBytes(url, opts);
    return { ...res, body: res.body.toString('utf8') };
  }

  /** As fetch, with the body as bytes (images). */
  async fetchBytes(url: string, opts: SafeRequestOptions = {}): Promise<SafeResponse<Buffer>> {
    let current = new URL(url);
    const maxRedirects = opts.maxRedirects ?? 5;
    const worker = workerOf(this.worker);
    for (let hop = 0; ; hop++) {
      this.checkUrl(current);
      const method = hop === 0 ? (opts.method ?? 'GET') : 'GET';
      const payload = hop === 0 ? opts.body : undefined;
      const timeouts = { headersTimeout: opts.timeoutMs ?? 10_000, bodyTimeout: opts.timeoutMs ?? 10_000 };
      let res: Dispatcher.ResponseData;
      if (worker) {
        // The worker resolves the name itself: every address the name has must pass the policy here.
        await this.checkResolved(current);
        res = await request(worker.url, {
          dispatcher: this.workerAgent,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            url: current.toString(),
            key: worker.key,
            method,
            ...(opts.headers ? { headers: opts.headers } : {}),
            ...(payload !== undefined ? { body: workerBody(payload) } : {}),
          }),
          ...timeouts,
        });
      } else {
        res = await request(current, {
          dispatcher: this.agent,
          method,
          headers: opts.headers,
          body: payload,
          ...timeouts,
        });
      }
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        if (hop >= maxRedirects) throw new Error('too many redirects');
        current = new URL(location, current);
        continue;
      }
      const body = await readLimited(res.body, opts.maxBytes ?? 1024 * 1024);
      return { status: res.statusCode, headers: res.headers, body, url: current.toString() };
    }
  }

  /** Scheme and literal-IP checks (a literal IP skips DNS, so the lookup hook would not see it). */
  private checkUrl(u: URL): void {
    if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'ws:' && u.protocol !== 'wss:')
      throw new Error(`unsupported scheme ${u.protocol}`);
    checkLiteralHost(u, this.policy);
  }

  /** Every address of a name the worker will fetch passes the policy (a literal was checked already). */
  private async checkResolved(u: URL): Promise<void> {
    if (this.policy === anyAddress) return;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return;
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      resolver.lookup(host, { all: true }, (err, found: LookupAddress[]) =>
        err ? reject(err) : resolve(found),
      ),
    );
    const refused = addresses.find((a) => !this.policy(a.address));
    if (refused || !addresses.length) throw new BlockedAddressError(host);
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.workerAgent.close()]);
  }
}

/**
 * A request body as the worker takes it: a JSON body rides as JSON (the worker sends it on
 * serialized), anything else as a string.
 */
function workerBody(body: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? parsed : body;
  } catch {
    return body;
  }
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new Error(`response larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
