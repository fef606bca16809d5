/**
 * The upstream client: every connection the relay opens to a channel goes through here. One keep-alive
 * pool, one proxy agent per `setting.proxy` URL (HTTP and WebSocket), cached credential exchanges, key
 * rotation across a channel's keys, and the two transports (HTTP through undici, Spark's WebSocket).
 */
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { Agent, Dispatcher, ProxyAgent, errors as undiciErrors, request } from 'undici';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { isIP } from 'node:net';
import { AddressPolicy, blockedIn, guardedLookup, publicOnly } from '../../../common/safe-http';
import { MetricsService } from '../../metrics';
import { OptionService } from '../../option';
import type { ChannelSnapshot } from '../channel-selector';
import type { ClientSignal } from '../client-signal';
import { RelayError, sanitizeUpstreamText } from '../errors';
import type { ProviderAdapter } from '../types';
import { sparkCall, UpstreamResponse } from './spark-transport';
import { awaitFirstByte } from './first-byte';
import { readChunks } from '../streaming/read-chunks';
import type { Attempt } from './attempt';

export type { UpstreamResponse } from './spark-transport';

const MAX_ERROR_BODY = 64 * 1024;

type CredentialExchange = NonNullable<ReturnType<NonNullable<ProviderAdapter['credentials']>>>;

@Injectable()
export class UpstreamClient implements OnModuleDestroy {
  private readonly agent: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly wsProxies = new Map<string, HttpsProxyAgent<string>>();
  private readonly credentials = new Map<string, { token: string; until: number }>();
  private readonly headersTimeoutMs: number | undefined;

  /**
   * Which addresses channels may reach: public ones, and private, loopback, link-local or other special
   * ones only when root allows it (ChannelPrivateAddressesAllowed) or ALLOW_PRIVATE_OUTBOUND=true forces it.
   */
  readonly policy: AddressPolicy = (ip) =>
    this.config.allowPrivateOutbound || this.options.bool('ChannelPrivateAddressesAllowed') || publicOnly(ip);
  /** The guarded resolver of every channel connection (the checked address is the one connected to). */
  readonly lookup = guardedLookup(this.policy);
  /** Literal-IP hosts of the origins seen (null: a name, checked by the lookup instead). */
  private readonly literalHosts = new Map<string, string | null>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly options: OptionService,
  ) {
    this.headersTimeoutMs = config.relayTimeoutSeconds > 0 ? config.relayTimeoutSeconds * 1000 : undefined;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: null,
      headersTimeout: this.headersTimeoutMs ?? 0,
      bodyTimeout: 0,
      connect: { lookup: this.lookup },
    });
  }

  /**
   * Refuses a channel URL whose host is a literal address the policy does not allow (names are checked
   * when they are resolved); the refusal names the switch that allows it.
   */
  checkTarget(url: string): void {
    const end = url.indexOf('/', url.indexOf('//') + 2);
    const origin = end < 0 ? url : url.slice(0, end);
    let host = this.literalHosts.get(origin);
    if (host === undefined) {
      let name = '';
      try {
        name = new URL(origin).hostname.replace(/^\[|\]$/g, '');
      } catch {
        /* not a URL: the request itself will fail */
      }
      host = isIP(name) ? name : null;
      if (this.literalHosts.size > 10_000) this.literalHosts.clear();
      this.literalHosts.set(origin, host);
    }
    if (host !== null && !this.policy(host)) throw addressRefused(host);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.agent.close(), ...[...this.proxies.values()].map((p) => p.close())]);
    for (const a of this.wsProxies.values()) a.destroy();
  }

  /** One of the channel's keys (several keys, one per line, are used in turn at random). */
  key(ch: ChannelSnapshot): string {
    return ch.keys.length > 1 ? ch.keys[Math.floor(Math.random() * ch.keys.length)] : (ch.keys[0] ?? '');
  }

  /** The HTTP dispatcher of a channel: its proxy when `setting.proxy` is set, else the shared pool. */
  dispatcher(ch: ChannelSnapshot): Dispatcher {
    const proxy = proxyOf(ch);
    if (!proxy) return this.agent;
    let p = this.proxies.get(proxy);
    if (!p) this.proxies.set(proxy, (p = new ProxyAgent(proxy)));
    return p;
  }

  /** The WebSocket agent of a channel with `setting.proxy` (an HTTP CONNECT tunnel), else undefined. */
  wsAgent(ch: ChannelSnapshot): HttpsProxyAgent<string> | undefined {
    const proxy = proxyOf(ch);
    if (!proxy) return undefined;
    let agent = this.wsProxies.get(proxy);
    if (!agent) {
      try {
        agent = new HttpsProxyAgent(proxy);
      } catch {
        throw new RelayError(
          502,
          'relay_upstream_failed',
          { reason: 'invalid channel proxy' },
          '',
          'upstream_error',
        );
      }
      this.wsProxies.set(proxy, agent);
    }
    return agent;
  }

  /** A short-lived access token from the channel's credential exchange (cached until a minute before expiry). */
  async credential(ex: CredentialExchange, ch: ChannelSnapshot): Promise<string> {
    const hit = this.credentials.get(ex.cacheKey);
    if (hit && hit.until > Date.now()) return hit.token;
    this.checkTarget(ex.request.url);
    const r = await request(ex.request.url, {
      method: ex.request.method,
      headers: ex.request.headers,
      body: ex.request.body,
      dispatcher: this.dispatcher(ch),
    });
    const text = await r.body.text();
    if (r.statusCode >= 400)
      throw new RelayError(
        502,
        'relay_upstream_failed',
        { reason: `credential exchange ${r.statusCode}` },
        '',
        null,
        true,
      );
    const { token, expiresInSeconds } = ex.parse(JSON.parse(text));
    this.credentials.set(ex.cacheKey, {
      token,
      until: Date.now() + Math.max(0, expiresInSeconds - 60) * 1000,
    });
    return token;
  }

  /**
   * Sends an attempt's call. Network failures and timeouts become retryable relay errors; an upstream
   * answer of 400 or more becomes the upstream's error (its body read, bounded).
   */
  async send(a: Attempt, signal: ClientSignal, stream: boolean): Promise<UpstreamResponse> {
    if (a.adapter.transport !== 'websocket') this.checkTarget(a.call.url);
    let up: UpstreamResponse;
    const sentAt = performance.now();
    try {
      if (a.adapter.transport === 'websocket')
        up = await sparkCall(a.areq, signal, Date.now(), this.config.relayTimeoutSeconds * 1000, this.lookup);
      else {
        // Named fields, not `{ ...targetOf(url), method, ... }`: on this V8 every key added after a
        // spread takes the runtime's slow path (about 0.7 µs each, 4–8 µs for this object).
        const target = targetOf(a.call.url);
        up = await this.dispatcher(a.channel).request({
          origin: target.origin,
          path: target.path,
          method: a.call.method,
          headers: a.call.headers,
          body: a.call.body,
          signal,
          headersTimeout: a.firstByteMs || this.headersTimeoutMs,
          // A complete answer may not stall between two reads longer than STREAMING_TIMEOUT; streams
          // keep their own first-event and idle timers (a trickle of bytes does not keep them alive).
          bodyTimeout: stream ? 0 : this.config.streamingTimeoutSeconds * 1000,
        });
      }
    } catch (err) {
      if (err instanceof RelayError) throw err;
      const blocked = blockedIn(err);
      if (blocked) throw addressRefused(blocked.target);
      if (signal.aborted)
        throw new RelayError(499, 'relay_upstream_failed', { reason: 'client closed the request' });
      if (err instanceof undiciErrors.HeadersTimeoutError)
        throw timeoutError('no answer within RELAY_TIMEOUT');
      throw new RelayError(502, 'relay_upstream_failed', { reason: 'network error' }, '', null, true);
    }
    this.metrics.upstream(a.channel.id, performance.now() - sentAt);
    if (up.statusCode >= 400)
      throw upstreamError(a, up.statusCode, await readLimited(up.body, MAX_ERROR_BODY));
    if (a.firstByteMs && a.adapter.transport !== 'websocket')
      await awaitFirstByte(up.body, a.firstByteMs - (performance.now() - sentAt));
    return up;
  }

  /** A channel test's call: no client, fixed timeouts, the whole answer read. */
  async probe(a: Attempt): Promise<{ status: number; contentType: string; text: string }> {
    this.checkTarget(a.call.url);
    const up = await request(a.call.url, {
      method: a.call.method,
      headers: a.call.headers,
      body: a.call.body,
      dispatcher: this.dispatcher(a.channel),
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    return {
      status: up.statusCode,
      contentType: String(up.headers['content-type'] ?? ''),
      text: await up.body.text(),
    };
  }
}

/**
 * A call's URL as the dispatcher takes it (origin and path, as undici's `request(url)` splits it),
 * parsed once per distinct URL rather than once per call. An invalid URL throws, as undici would.
 */
const parsedTargets = new Map<string, { origin: string; path: string }>();
function targetOf(url: string): { origin: string; path: string } {
  let t = parsedTargets.get(url);
  if (!t) {
    const u = new URL(url);
    t = { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
    if (parsedTargets.size >= 10_000) parsedTargets.clear();
    parsedTargets.set(url, t);
  }
  return t;
}

/** An upstream that took too long (retryable on another channel, never on the same one by default). */
export const timeoutError = (reason: string): RelayError => RelayError.timeout(reason);

const noAfterRead = (): undefined => undefined;

/**
 * Reads an answer's body to the end within the whole-request deadline; a stall or a cut is a retryable
 * upstream failure. The text as undici's `body.text()` gives it (UTF-8, a leading BOM dropped), read by
 * the body's events: `text()` left each call's request, body and handler objects reachable long enough
 * to outlive a young-generation collection (1.2–1.4 MB promoted per scavenge against 0.2 MB, and
 * scavenges two to three times as long, in the non-stream profile).
 */
export async function readAnswer(up: UpstreamResponse, deadlineAt: number): Promise<string> {
  let timer: NodeJS.Timeout | null = null;
  let late = false;
  if (deadlineAt > 0) {
    timer = setTimeout(
      () => {
        late = true;
        up.body.destroy();
      },
      Math.max(0, deadlineAt - Date.now()),
    );
  }
  try {
    const parts: Buffer[] = [];
    await readChunks(up.body, (chunk) => parts.push(chunk), noAfterRead);
    return utf8Text(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  } catch (err) {
    if (late || err instanceof undiciErrors.BodyTimeoutError)
      throw timeoutError('the upstream stopped sending its answer');
    throw RelayError.cutShort();
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** A channel address the outbound policy refuses: the caller's error names the switch that allows it. */
export function addressRefused(host: string): RelayError {
  const e = new RelayError(
    502,
    'relay_channel_address_refused',
    { host },
    '',
    'channel_address_refused',
    true,
  );
  e.detail = `refused to connect to ${host}`;
  return e;
}

function proxyOf(ch: ChannelSnapshot): string {
  return typeof ch.setting.proxy === 'string' ? ch.setting.proxy.trim() : '';
}

/** An upstream's error answer as a relay error: its message (sanitized), the channel's status mapping, retryability. */
export function upstreamError(
  a: Pick<Attempt, 'adapter' | 'channel'>,
  status: number,
  text: string,
): RelayError {
  let message: string;
  try {
    message = a.adapter.errorMessage?.(status, text) ?? text;
  } catch {
    message = text;
  }
  message = sanitizeUpstreamText(message || `status ${status}`, a.channel.keys);
  const mapped = a.channel.statusCodeMapping[String(status)];
  const mappedStatus = mapped !== undefined && Number.isInteger(Number(mapped)) ? Number(mapped) : null;
  const retryable =
    status === 429 || status === 401 || status === 403 || (status >= 500 && status !== 504 && status !== 524);
  if ((status === 401 || status === 403) && mappedStatus === null) {
    // The upstream refused the gateway's own credentials: the caller's key is fine, so the caller gets a
    // gateway error; the upstream's words go to the error log.
    const e = new RelayError(
      502,
      'relay_upstream_refused',
      { status },
      '',
      'upstream_auth_failed',
      retryable,
      status,
    );
    e.detail = message;
    return e;
  }
  return new RelayError(mappedStatus ?? status, null, {}, message, 'upstream_error', retryable, status);
}

async function readLimited(body: UpstreamResponse['body'], max: number): Promise<string> {
  let out = '';
  for await (const chunk of body) {
    if (out.length < max) out += (chunk as Buffer).toString('utf8');
  }
  return out.slice(0, max);
}

/** Bytes as text the way the Fetch standard's UTF-8 decode reads them (undici's `text()`): a BOM dropped. */
export function utf8Text(b: Buffer): string {
  const start = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  return b.toString('utf8', start);
}
