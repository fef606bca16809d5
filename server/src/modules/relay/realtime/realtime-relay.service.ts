/**
 * The realtime relay: `GET /v1/realtime?model=` upgraded to a WebSocket (OpenAI Realtime API) and
 * bridged to an OpenAI(-compatible) or Azure channel's realtime WebSocket.
 *
 *   upgrade request → RelayAdmission (key, user, group, model limits, price, rate limit)
 *   → balance > 0 → pick a channel (selector; handshake failures try the next one, up to RetryTimes)
 *   → upstream WebSocket open → client upgraded → frames relayed both ways, unchanged
 *   → every upstream `response.done` is billed on its usage (QuotaLedgerService, nothing reserved)
 *   → a balance at or below zero ends the session (error event, close 1008)
 *   → no frame either way for STREAMING_TIMEOUT seconds ends it too (close 1001, "idle timeout ...").
 *
 * The channel's `setting.proxy` (an http(s) proxy URL, as for HTTP calls) carries the upstream
 * WebSocket through an HTTP CONNECT tunnel.
 *
 * Refusals before the upgrade are HTTP answers with the OpenAI error JSON; nothing is upgraded.
 * Pure parts (URLs, usage, log rows, close codes) live in ./realtime-protocol.ts.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import WebSocket, { WebSocketServer } from 'ws';
import { pickLang } from '../../../common/i18n/messages';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { usageQuota } from '../../billing';
import { QuotaLedgerService } from '../../billing';
import { BudgetService } from '../../budget';
import { ContentLogService } from '../../log';
import { OptionService } from '../../option';
import { ChannelHealthService } from '../channel-health.service';
import { ChannelSnapshot, mapModel, selectChannel } from '../channel-selector';
import { RelayError, relayFail, sanitizeUpstreamText, toRelayError } from '../errors';
import { RelayAdmission } from '../lifecycle/admission';
import {
  budgetError,
  budgetParty,
  REALTIME_RESPONSE,
  REALTIME_SESSION,
  Spending,
  SpendTicket,
} from '../lifecycle/spend';
import { Failover } from '../lifecycle/failover';
import { InboundRequest, RelayContext } from '../relay-context';
import { RelayCacheService } from '../relay-cache.service';
import { addressRefused, UpstreamClient } from '../upstream/upstream-client';
import { blockedIn } from '../../../common/safe-http';
import {
  closeReason,
  errorEvent,
  handshakeError,
  httpRefusal,
  isRealtimeType,
  MAX_BUFFERED_BYTES,
  mayBeEvent,
  parseEvent,
  pickProtocol,
  REALTIME_PATH,
  realtimeDraft,
  realtimeErrorDraft,
  realtimeKey,
  realtimeTarget,
  RealtimeUsage,
  realtimeUsage,
  relayCloseCode,
  sessionRequestId,
} from './realtime-protocol';
import { SessionTranscript } from './realtime-content';
import { RESPONSES_SOCKET_PATH, ResponsesSocket } from './responses-socket';

const MAX_ERROR_BODY = 64 * 1024;
/** How long a session closed by the gateway may take to finish its closing handshakes. */
export const CLOSE_GRACE_MS = 3000;
const noop = () => undefined;

interface Opened {
  upstream: WebSocket;
  channel: ChannelSnapshot;
  upstreamModel: string;
  tried: number[];
}

/** Thrown when the client went away while its upstream was being opened (nothing to answer). */
class ClientGone extends Error {}

@Injectable()
export class RealtimeRelay implements OnModuleDestroy {
  readonly logger = new Logger('Realtime');
  private readonly trust: (addr: string, i: number) => boolean;
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<RealtimeSession>();
  /** Request id of each upgrade in progress, answered in the 101 as X-Oneapi-Request-Id. */
  private readonly ids = new WeakMap<IncomingMessage, string>();
  private readonly handshakeMs: number;
  /** Idle limit of a session (STREAMING_TIMEOUT); 0 = none. */
  readonly idleMs: number;
  readonly idleSeconds: number;
  /** How long a closing session waits for both closing handshakes before it drops the sockets. */
  closeGraceMs = CLOSE_GRACE_MS;
  private server: Server | null = null;
  private closing = false;
  /** `/v1/responses` upgrades: the Responses API over a WebSocket, served by the HTTP relay. */
  private readonly responses = new ResponsesSocket(
    async (req) => {
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      if (!isWebSocketHandshake(req))
        throw relayFail(400, 'relay_bad_body', { reason: 'not a WebSocket handshake' });
      const ip = proxyAddr(req, this.trust);
      await this.admission.caller(realtimeKey(req.headers, query), ip);
      return ip;
    },
    () => this.server,
  );

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly admission: RelayAdmission,
    private readonly failover: Failover,
    private readonly upstreamClient: UpstreamClient,
    private readonly cache: RelayCacheService,
    readonly options: OptionService,
    readonly ledger: QuotaLedgerService,
    readonly health: ChannelHealthService,
    readonly budgets: BudgetService,
    readonly spending: Spending,
    readonly content: ContentLogService,
  ) {
    this.trust = proxyAddr.compile(config.trustedProxies);
    this.handshakeMs = config.relayTimeoutSeconds > 0 ? config.relayTimeoutSeconds * 1000 : 30_000;
    this.idleSeconds = Math.max(0, config.streamingTimeoutSeconds);
    this.idleMs = this.idleSeconds * 1000;
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: MAX_BUFFERED_BYTES,
      handleProtocols: (offered) => pickProtocol(offered),
    });
    this.wss.on('headers', (headers: string[], req: IncomingMessage) => {
      const id = this.ids.get(req);
      if (id) headers.push(`X-Oneapi-Request-Id: ${id}`);
    });
  }

  /** Serves `/v1/realtime` upgrades of this HTTP server. */
  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
  }

  /** Open sessions (for tests and shutdown). */
  get size(): number {
    return this.sessions.size;
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    this.server?.off('upgrade', this.onUpgrade);
    this.responses.close();
    const open = [...this.sessions];
    await Promise.all(open.map((s) => s.shutdown(1001, 'server shutting down')));
    await Promise.all(open.map((s) => s.billed()));
    this.wss.close();
  }

  ended(s: RealtimeSession): void {
    this.sessions.delete(s);
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q >= 0 ? url.slice(0, q) : url).replace(/\/+$/, '');
    if (path === RESPONSES_SOCKET_PATH) {
      socket.on('error', noop);
      this.responses.upgrade(req, socket, head).catch((err: Error) => {
        this.logger.error(`responses socket failed to open: ${err.stack ?? err.message}`);
        if (!socket.destroyed) socket.destroy();
      });
      return;
    }
    if (path !== REALTIME_PATH) {
      // Node hands every Upgrade request to the 'upgrade' listeners: when this is the only one,
      // answer instead of leaving the socket open.
      if (this.server && this.server.listenerCount('upgrade') <= 1) {
        endWith(
          socket,
          httpRefusal(
            404,
            `Unknown WebSocket endpoint ${path.slice(0, 100)}`,
            'not_found',
            sessionRequestId(new Date()),
          ),
        );
      }
      return;
    }
    socket.on('error', noop);
    this.open(req, socket, head, new URLSearchParams(q >= 0 ? url.slice(q + 1) : '')).catch((err: Error) => {
      this.logger.error(`realtime session failed to open: ${err.stack ?? err.message}`);
      if (!socket.destroyed) socket.destroy();
    });
  };

  private async open(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    query: URLSearchParams,
  ): Promise<void> {
    const model = query.get('model') ?? query.get('deployment') ?? '';
    const inbound: InboundRequest = {
      format: 'openai',
      mode: 'chat',
      body: model ? { model } : {},
      raw: null,
      contentType: '',
      pathModel: null,
      pathStream: false,
      key: realtimeKey(req.headers, query),
      ip: proxyAddr(req, this.trust),
      requestId: sessionRequestId(new Date()),
      lang: pickLang(
        typeof req.headers['accept-language'] === 'string' ? req.headers['accept-language'] : undefined,
      ),
      userAgent: String(req.headers['user-agent'] ?? ''),
    };
    const refuse = (e: RelayError) => {
      const status = e.status === 499 ? 400 : e.status;
      endWith(
        socket,
        httpRefusal(status, e.messageIn(inbound.lang), e.code, inbound.requestId, e.retryAfter),
      );
    };
    if (!isWebSocketHandshake(req))
      return refuse(relayFail(400, 'relay_bad_body', { reason: 'not a WebSocket handshake' }));
    if (this.closing)
      return refuse(new RelayError(503, 'relay_upstream_failed', { reason: 'shutting down' }));

    let ctx: RelayContext;
    let ticket: SpendTicket;
    try {
      ctx = this.admission.admit(inbound, await this.admission.caller(inbound.key, inbound.ip));
      // The session's ticket: balance > 0, the request windows and token limits (its slot held for the
      // session), one request of the budgets. Each response is admitted by a ticket of its own.
      ticket = this.spending.open(ctx, REALTIME_SESSION);
      await ticket.admit();
    } catch (err) {
      return refuse(toRelayError(err));
    }

    let opened: Opened;
    try {
      opened = await this.connect(ticket, socket);
    } catch (err) {
      ticket.close();
      if (err instanceof ClientGone) return;
      return refuse(toRelayError(err));
    }
    const { upstream } = opened;
    if (socket.destroyed || this.closing) {
      ticket.close();
      upstream.close(1000);
      if (!socket.destroyed)
        refuse(new RelayError(503, 'relay_upstream_failed', { reason: 'shutting down' }));
      return;
    }
    socket.off('error', noop);
    let upgraded = false;
    this.ids.set(req, inbound.requestId);
    // Synchronous here (no verifyClient): the callback has run when handleUpgrade returns.
    this.wss.handleUpgrade(req, socket, head, (client) => {
      upgraded = true;
      // Content logs: the token, the user or the channel stores content (one boolean when none does).
      const stored =
        (this.content.active && this.content.wants(ctx.token?.id ?? 0, ctx.user.id)) ||
        ContentLogService.channelWants(opened.channel.setting);
      const transcript = stored
        ? { messages: new SessionTranscript(this.content.captureLimit()), headers: req.headers }
        : null;
      ticket.handOver();
      const session = new RealtimeSession(this, ticket, client, opened, transcript);
      this.sessions.add(session);
    });
    if (!upgraded) {
      ticket.close();
      upstream.close(1000);
    }
  }

  /** Opens the upstream WebSocket, trying the next channel on a retryable handshake failure. */
  private async connect(ticket: SpendTicket, socket: Duplex): Promise<Opened> {
    const ctx = ticket.ctx;
    const result = await this.failover.run<{ channel: ChannelSnapshot; upstreamModel: string }, WebSocket>({
      retries: this.failover.retries(false),
      pick: (attempt, exclude) => {
        if (socket.destroyed) throw new ClientGone();
        const channel = this.pick(ctx, attempt, exclude);
        const upstreamModel = mapModel(channel.modelMapping, ctx.model);
        if (upstreamModel === null) throw relayFail(500, 'relay_model_cycle');
        return { channel, upstreamModel };
      },
      channelOf: (a) => a.channel,
      run: ({ channel, upstreamModel }) => {
        const target = realtimeTarget(channel, upstreamModel, this.upstreamClient.key(channel))!;
        return this.dial(target.url, target.headers, channel, socket);
      },
      passThrough: (err) => err instanceof ClientGone,
    });
    if (result.ok)
      return {
        upstream: result.value,
        channel: result.attempt.channel,
        upstreamModel: result.attempt.upstreamModel,
        tried: result.tried,
      };
    const err =
      result.error ??
      relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model }, 'model_not_found');
    ticket.refund(
      result.channel,
      realtimeErrorDraft({
        ctx,
        channelId: result.channel?.id ?? 0,
        tried: result.tried,
        error: err,
        now: Date.now(),
      }),
    );
    throw err;
  }

  private pick(ctx: RelayContext, attempt: number, exclude: ReadonlySet<number>): ChannelSnapshot {
    const index = this.cache.channels;
    if (ctx.pinnedChannel !== null) {
      const ch = index.byId.get(ctx.pinnedChannel);
      if (!ch?.enabled) throw relayFail(503, 'relay_pinned_channel_missing');
      if (!isRealtimeType(ch.type)) throw relayFail(400, 'relay_mode_unsupported');
      return ch;
    }
    const ch = selectChannel(index, ctx.group, ctx.model, attempt, exclude, (c) => isRealtimeType(c.type));
    if (!ch)
      throw relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model }, 'model_not_found');
    return ch;
  }

  /** The upstream handshake: resolves with the open socket, or rejects with the relay error to answer. */
  private dial(
    url: string,
    headers: Record<string, string>,
    ch: ChannelSnapshot,
    client: Duplex,
  ): Promise<WebSocket> {
    const agent = this.upstreamClient.wsAgent(ch);
    return new Promise<WebSocket>((resolve, reject) => {
      let settled = false;
      this.upstreamClient.checkTarget(url.replace(/^ws/i, 'http'));
      const ws = new WebSocket(url, {
        lookup: this.upstreamClient.lookup,
        agent,
        headers,
        perMessageDeflate: false,
        maxPayload: MAX_BUFFERED_BYTES,
        handshakeTimeout: this.handshakeMs,
        followRedirects: false,
      });
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        client.off('close', onClientGone);
        if (err) {
          ws.terminate();
          reject(err);
        } else {
          ws.off('error', onError);
          resolve(ws);
        }
      };
      const onClientGone = () => finish(new ClientGone());
      // Stays attached after a failure: a terminated handshake may still report an error.
      const onError = (err: Error) => {
        const blocked = blockedIn(err);
        if (blocked) return finish(addressRefused(blocked.target));
        finish(
          new RelayError(
            502,
            'relay_upstream_failed',
            { reason: sanitizeUpstreamText(err.message) },
            '',
            'upstream_error',
            true,
          ),
        );
      };
      client.once('close', onClientGone);
      ws.on('error', onError);
      // Paused until the session's listeners are attached (session.created may come with the 101).
      ws.once('open', () => {
        ws.pause();
        finish(null);
      });
      ws.once('unexpected-response', (req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < MAX_ERROR_BODY) body += chunk;
        });
        const done = () => {
          req.destroy();
          finish(handshakeError(ch, res.statusCode ?? 502, body.slice(0, MAX_ERROR_BODY)));
        };
        res.once('end', done);
        res.once('error', done);
        res.once('close', done);
      });
    });
  }
}

/** Writes a refusal and closes the socket once it is written. */
function endWith(socket: Duplex, response: string): void {
  if (socket.destroyed) return;
  socket.on('error', noop);
  socket.once('finish', () => socket.destroy());
  socket.end(response);
}

function isWebSocketHandshake(req: IncomingMessage): boolean {
  const key = req.headers['sec-websocket-key'];
  const version = req.headers['sec-websocket-version'];
  return (
    req.method === 'GET' &&
    String(req.headers.upgrade ?? '').toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    /^[+/0-9A-Za-z]{22}==$/.test(key.trim()) &&
    (version === '8' || version === '13')
  );
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * One bridged session: frames relayed both ways, closes propagated, `response.done` billed in order.
 */
class RealtimeSession {
  private ending = false;
  private billing: Promise<void> = Promise.resolve();
  private readonly ctx: RelayContext;
  /** Responses admitted (their `response.create` forwarded) and not yet done, oldest first. */
  private readonly pending: SpendTicket[] = [];
  /** Client frames wait here behind a `response.create` being admitted, so that none overtakes it. */
  private inbound: Promise<void> | null = null;
  private readonly starts = new Map<string, number>();
  private lastMark: number;
  private readonly upstream: WebSocket;
  private readonly closed: Promise<void>;
  /** Time of the last frame either way, and the timer that checks it (STREAMING_TIMEOUT). */
  private lastFrame = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly host: RealtimeRelay,
    /** The session's ticket: its limit slot is freed, and its unfinished responses refunded, at the end. */
    private readonly ticket: SpendTicket,
    private readonly client: WebSocket,
    private readonly opened: Opened,
    /** The session's messages, kept when its content is stored (content logs). */
    private readonly transcript: {
      messages: SessionTranscript;
      headers: IncomingMessage['headers'];
    } | null = null,
  ) {
    this.ctx = ticket.ctx;
    this.upstream = opened.upstream;
    this.lastMark = Date.now();
    const upstream = this.upstream;
    const bothClosed = (ws: WebSocket) =>
      new Promise<void>((resolve) =>
        ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve()),
      );
    this.closed = Promise.all([bothClosed(client), bothClosed(upstream)]).then(() => host.ended(this));

    const messages = transcript?.messages ?? null;
    client.on('message', (data, isBinary) => {
      this.lastFrame = Date.now();
      const buf = toBuffer(data);
      if (messages) messages.fromClient(buf, isBinary);
      this.fromClient(buf, isBinary);
    });
    upstream.on('message', (data, isBinary) => {
      this.lastFrame = Date.now();
      const buf = toBuffer(data);
      if (messages) messages.fromUpstream(buf, isBinary);
      this.forward(client, buf, isBinary);
      if (!isBinary) this.observe(buf);
    });
    client.on('close', (code, reason) => {
      if (upstream.readyState === WebSocket.OPEN)
        upstream.close(relayCloseCode(code, 1000), closeReason(reason));
      else if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
    });
    upstream.on('close', (code, reason) => {
      if (client.readyState !== WebSocket.OPEN) return;
      const text = closeReason(sanitizeUpstreamText(reason.toString('utf8')));
      client.close(relayCloseCode(code, 1011), text || (code === 1006 ? 'upstream connection lost' : ''));
    });
    client.on('error', (err) => this.abort('client', err));
    upstream.on('error', (err) => this.abort('upstream', err));
    if (upstream.readyState === WebSocket.OPEN) upstream.resume();
    else void this.shutdown(1011, 'upstream connection lost');
    if (host.idleMs > 0) this.armIdle(host.idleMs);
    void this.closed.then(() => {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      // Responses asked for and never done are not charged; the session's slot is freed.
      void this.billing.then(() => {
        for (const t of this.pending.splice(0)) t.close();
        ticket.close();
      });
      if (transcript) this.storeTranscript(transcript.messages, transcript.headers);
    });
  }

  /** Checks for idleness when the limit could first be reached, then again from the last frame. */
  private armIdle(delay: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.ending) return;
      const idle = Date.now() - this.lastFrame;
      if (idle >= this.host.idleMs) {
        const reason = `idle timeout: no frames for ${this.host.idleSeconds} s`;
        void this.shutdown(1001, reason, undefined, reason);
      } else this.armIdle(this.host.idleMs - idle);
    }, delay);
    this.idleTimer.unref();
  }

  /** The session is over: its messages go to the content logs as one row (the session's request id). */
  private storeTranscript(messages: SessionTranscript, headers: IncomingMessage['headers']): void {
    const { ctx, opened } = this;
    try {
      const call = messages.call({
        requestId: ctx.req.requestId,
        userId: ctx.user.id,
        startedAt: ctx.startedAt,
        headers,
        secrets: [ctx.req.key ?? '', ...opened.channel.keys],
        channelId: opened.channel.id,
      });
      this.host.content.recordAnswer(call, messages.answer(), 101, 'application/json');
    } catch (err) {
      this.host.logger.warn(`realtime content of ${ctx.req.requestId} not stored: ${(err as Error).message}`);
    }
  }

  /** Resolves when every response seen so far is billed. */
  billed(): Promise<void> {
    return this.billing;
  }

  /** Closes both sides (the client with `code`); resolves when both are closed (forced after a grace period). */
  shutdown(code: number, reason: string, event?: string, upstreamReason = ''): Promise<void> {
    if (!this.ending) {
      this.ending = true;
      if (this.client.readyState === WebSocket.OPEN) {
        if (event) this.client.send(event);
        this.client.close(code, closeReason(reason));
      }
      if (this.upstream.readyState === WebSocket.OPEN)
        this.upstream.close(code === 1011 ? 1011 : 1000, closeReason(upstreamReason));
      const force = setTimeout(() => {
        this.client.terminate();
        this.upstream.terminate();
      }, this.host.closeGraceMs);
      force.unref();
      void this.closed.then(() => clearTimeout(force));
    }
    return this.closed;
  }

  private abort(side: 'client' | 'upstream', err: Error): void {
    this.host.logger.debug(`realtime ${side} error (${this.ctx.req.requestId}): ${err.message}`);
    this.ending = true;
    this.client.terminate();
    this.upstream.terminate();
  }

  /** Sends a frame on, unchanged; a side with more than MAX_BUFFERED_BYTES queued ends the session. */
  private forward(dest: WebSocket, data: Buffer, isBinary: boolean): void {
    if (this.ending || dest.readyState !== WebSocket.OPEN) return;
    if (dest.bufferedAmount + data.length > MAX_BUFFERED_BYTES) {
      void this.shutdown(1011, 'buffer limit exceeded');
      return;
    }
    dest.send(data, { binary: isBinary });
  }

  /**
   * A client frame goes upstream unchanged, except that a `response.create` is first admitted by a
   * ticket of its own (balance, budgets): refused, the client gets an error event and nothing is sent.
   * Frames behind one being admitted wait their turn.
   */
  private fromClient(buf: Buffer, isBinary: boolean): void {
    const create = !isBinary && mayBeEvent(buf, 'response.create') && !!parseEvent(buf, 'response.create');
    if (!create && !this.inbound) return this.forward(this.upstream, buf, isBinary);
    const step = (): Promise<void> | void =>
      create ? this.admitResponse(buf) : this.forward(this.upstream, buf, isBinary);
    const queued: Promise<void> = (this.inbound ?? Promise.resolve()).then(step).catch((err: Error) => {
      this.host.logger.error(`realtime frame not relayed (${this.ctx.req.requestId}): ${err.message}`);
    });
    this.inbound = queued;
    void queued.then(() => {
      if (this.inbound === queued) this.inbound = null;
    });
  }

  private async admitResponse(buf: Buffer): Promise<void> {
    if (this.ending) return;
    const t = this.host.spending.open(this.ctx, REALTIME_RESPONSE, this.ticket);
    try {
      const admitting = t.admit();
      if (admitting) await admitting;
    } catch (err) {
      const e = toRelayError(budgetError(err));
      if (this.client.readyState === WebSocket.OPEN)
        this.client.send(errorEvent(e.messageIn(this.ctx.req.lang), e.code ?? 'refused', refusalType(e)));
      return;
    }
    if (this.ending) return t.close();
    this.pending.push(t);
    this.forward(this.upstream, buf, false);
  }

  /** Watches upstream text events for response boundaries (audio deltas are never parsed). */
  private observe(buf: Buffer): void {
    if (mayBeEvent(buf, 'response.created')) {
      const ev = parseEvent(buf, 'response.created');
      const id = ev && isRecord(ev.response) ? ev.response.id : undefined;
      if (typeof id === 'string') {
        if (this.starts.size >= 1000) this.starts.clear();
        this.starts.set(id, Date.now());
      }
    }
    if (!mayBeEvent(buf, 'response.done')) return;
    const ev = parseEvent(buf, 'response.done');
    if (!ev || !isRecord(ev.response)) return;
    const usage = realtimeUsage(ev.response.usage);
    if (!usage) return;
    const id = typeof ev.response.id === 'string' ? ev.response.id : '';
    const now = Date.now();
    const startedAt = this.starts.get(id) ?? this.lastMark;
    this.starts.delete(id);
    this.lastMark = now;
    this.billing = this.billing
      .then(() => this.bill(usage, id, startedAt, now))
      .catch((err: Error) =>
        this.host.logger.error(`realtime billing failed (${this.ctx.req.requestId}): ${err.message}`),
      );
  }

  /**
   * Charges one response on its usage, by the ticket that admitted it (the oldest pending one), or by a
   * ticket of its own when the upstream answered unasked (server VAD): that one counts on the session's
   * budgets. A budget or a balance it fills ends the session after the answer was relayed.
   */
  private async bill(
    usage: RealtimeUsage,
    responseId: string,
    startedAt: number,
    now: number,
  ): Promise<void> {
    const { ctx, host, opened } = this;
    const charged = usageQuota(ctx.price, usage.counts);
    // The charge is settled even when the balance cannot be read (the session then stays open).
    const balance = await host.ledger.balanceOf(ctx.user.id).catch(() => Infinity);
    const log = host.options.bool('LogConsumeEnabled')
      ? realtimeDraft({
          ctx,
          channelId: opened.channel.id,
          upstreamModel: opened.upstreamModel,
          tried: opened.tried,
          quota: charged,
          usage,
          responseId,
          startedAt,
          now,
          contentLogged: this.transcript !== null,
        })
      : null;
    const t = this.pending.shift() ?? host.spending.open(ctx, REALTIME_RESPONSE, this.ticket);
    t.charge({ channel: opened.channel, charged, usage: usage.counts, log });
    if (t.countedOn) await t.countedOn;
    if (this.ticket.budget) {
      const full = await host.budgets.exhausted(this.ticket.budget, budgetParty(ctx));
      if (full) {
        const e = budgetError(full) as RelayError;
        return void this.shutdown(
          1008,
          'budget exhausted',
          errorEvent(e.messageIn(ctx.req.lang), 'budget_exhausted', 'rate_limit_error'),
        );
      }
    }

    const userSpent = balance - charged <= 0;
    const tokenSpent = !!ctx.token && !ctx.token.unlimited && ctx.token.remainQuota <= 0;
    if (userSpent || tokenSpent) {
      const e = relayFail(
        403,
        userSpent ? 'relay_quota_insufficient' : 'relay_token_quota_insufficient',
        {},
        'insufficient_quota',
      );
      void this.shutdown(
        1008,
        'insufficient quota',
        errorEvent(e.messageIn(ctx.req.lang), 'insufficient_quota', 'permission_error'),
      );
    }
  }
}

/** The error event type of a refused response: limits and budgets are rate errors, the balance a permission one. */
function refusalType(e: RelayError): string {
  return e.status === 429
    ? 'rate_limit_error'
    : e.status === 403
      ? 'permission_error'
      : 'invalid_request_error';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
