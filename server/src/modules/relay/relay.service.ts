/**
 * The relay lifecycle of one model call, top to bottom:
 *
 *   admission (key → token → user → model → group → price → screen)      lifecycle/admission.ts
 *   → spend ticket: balance → limits → budgets → reservation             lifecycle/spend.ts
 *   → failover: plan an attempt → send upstream → answer the caller      lifecycle/failover.ts,
 *     (JSON, folded stream, binary, or the stream pump), next channel       attempt-plan.ts, upstream/,
 *     on a retryable failure while nothing has reached the caller          respond/
 *   → the ticket charges the full price, or refunds everything; closes   lifecycle/spend.ts,
 *     (log rows: lifecycle/settlement.ts)                                   settlement.ts
 *
 * Adapters and format converters are pure; see ./adapters and ./formats.
 */
import type { ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { MetricsService } from '../metrics';
import { OptionService } from '../option';
import { ClientSignal } from './client-signal';
import { relayFail, toRelayError } from './errors';
import { ContentLogService } from '../log';
import { Caller, RelayAdmission } from './lifecycle/admission';
import { captureAtAdmission, captureForChannel, recordContent } from './lifecycle/content-capture';
import { Attempt, AttemptPlanner } from './lifecycle/attempt-plan';
import { Failover, FailoverPlan, FailoverResult } from './lifecycle/failover';
import { HTTP_ENTRY, httpCharge, refundDraft } from './lifecycle/settlement';
import { Spending, SpendTicket } from './lifecycle/spend';
import { InboundRequest, RelayContext } from './relay-context';
import { relayAggregated, relayBinary, relayJson } from './respond/complete';
import type { Outcome } from './respond/outcome';
import { relayStream, StreamSettings } from './respond/stream';
import { writeError } from './respond/write';
import { UpstreamClient } from './upstream/upstream-client';

const BINARY_MODES = new Set(['speech', 'transcriptions', 'translations']);

@Injectable()
export class RelayService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly admission: RelayAdmission,
    private readonly spending: Spending,
    readonly planner: AttemptPlanner,
    private readonly failover: Failover,
    private readonly upstream: UpstreamClient,
    private readonly options: OptionService,
    private readonly metrics: MetricsService,
    readonly content: ContentLogService,
  ) {}

  /** RetryTimes for a call of the HTTP relay. */
  failoverRetries(): number {
    return this.failover.retries(false);
  }

  private running = 0;
  private idleWaiters: Array<() => void> = [];

  /** Serves one request of an admitted caller end to end, writing the answer (or the error) to `res`. */
  async handle(req: InboundRequest, res: ServerResponse, caller: Caller): Promise<void> {
    this.running++;
    try {
      await this.serve(req, res, caller);
    } finally {
      if (--this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Resolves once every call in progress has settled (its charge or refund queued), or after `ms`. */
  async settled(ms: number): Promise<void> {
    if (this.running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((r) => this.idleWaiters.push(r)),
      new Promise<void>((r) => (timer = setTimeout(r, ms))),
    ]);
    clearTimeout(timer);
  }

  private async serve(req: InboundRequest, res: ServerResponse, caller: Caller): Promise<void> {
    let ticket: SpendTicket;
    try {
      const ctx = this.admission.admit(req, caller);
      ticket = this.spending.open(ctx, HTTP_ENTRY);
      // A promise only when the ticket has to wait (a balance to read, a limit to count, a budget or a
      // reservation to write); the usual call is admitted without one.
      const admitting = ticket.admit();
      if (admitting) await admitting;
    } catch (err) {
      return writeError(res, req, toRelayError(err));
    }
    try {
      await this.serveAdmitted(ticket, req, res);
    } finally {
      ticket.close();
    }
  }

  private async serveAdmitted(ticket: SpendTicket, req: InboundRequest, res: ServerResponse): Promise<void> {
    const ctx = ticket.ctx;
    if (this.content.active) captureAtAdmission(this.content, ctx, res);
    const call = new RelayCall(this, ctx, res);
    res.on('close', call.onClose);
    let result: FailoverResult<Attempt, Outcome>;
    try {
      result = await this.failover.run(call);
    } finally {
      res.off('close', call.onClose);
    }

    if (result.ok) {
      const logged = this.options.bool('LogConsumeEnabled');
      ticket.charge(httpCharge(ctx, result.attempt, result.value, result.tried, logged));
      if (ctx.content) recordContent(this.content, ctx, result.attempt.channel, res);
      return;
    }
    const err = result.error ?? relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model });
    ticket.refund(result.channel, refundDraft(ctx, result.channel, err, result.tried));
    writeError(res, req, err);
    if (ctx.content) recordContent(this.content, ctx, result.channel, res);
  }

  /** One attempt: the upstream call, then the answer in the form the upstream's content type calls for. */
  async answer(ctx: RelayContext, a: Attempt, res: ServerResponse, signal: ClientSignal): Promise<Outcome> {
    const deadlineAt =
      this.config.relayTimeoutSeconds > 0 ? Date.now() + this.config.relayTimeoutSeconds * 1000 : 0;
    const up = await this.upstream.send(a, signal, ctx.stream);
    const contentType = String(up.headers['content-type'] ?? '');
    const isStream =
      ctx.stream &&
      (contentType.includes('event-stream') ||
        contentType.includes('ndjson') ||
        contentType.includes('eventstream') ||
        (a.adapter.framing === 'ndjson' && !contentType.includes('application/json')));
    if (isStream)
      return this.metrics.trackStream(relayStream(ctx, a, up, res, signal, this.streamSettings()));
    if (!ctx.stream && a.adapter.createStreamAggregator && contentType.includes('event-stream'))
      return relayAggregated(ctx, a, up, res);
    // Audio and plain-text transcripts are passed on as they are; anything else must be JSON.
    if (!contentType.includes('json') && BINARY_MODES.has(ctx.req.mode)) return relayBinary(ctx, a, up, res);
    return relayJson(ctx, a, up, res, deadlineAt);
  }

  private streamSettings(): StreamSettings {
    const o = this.options;
    return {
      queueMax: Math.max(0, o.num('StreamCacheQueueLength')),
      pingMs: o.bool('general_setting.ping_interval_enabled')
        ? Math.max(1, o.num('general_setting.ping_interval_seconds')) * 1000
        : 0,
      idleSeconds: this.config.streamingTimeoutSeconds,
      firstEventSeconds: this.config.firstByteTimeoutSeconds,
    };
  }
}

/**
 * One call's failover plan: a single object per request whose methods the failover loop calls (one
 * allocation where a plan of closures costs one per step).
 */
class RelayCall implements FailoverPlan<Attempt, Outcome> {
  readonly signal = new ClientSignal();
  readonly retries: number;

  constructor(
    private readonly relay: RelayService,
    private readonly ctx: RelayContext,
    private readonly res: ServerResponse,
  ) {
    this.retries = relay.failoverRetries();
  }

  /** The client left before the answer was complete: the upstream call is cancelled. */
  readonly onClose = (): void => {
    if (!this.res.writableFinished) this.signal.abort();
  };

  pick(n: number, tried: ReadonlySet<number>): Attempt | Promise<Attempt> {
    if (this.signal.aborted)
      throw relayFail(499, 'relay_upstream_failed', { reason: 'client closed the request' });
    return this.relay.planner.plan(this.ctx, n, tried);
  }

  channelOf(a: Attempt) {
    return a.channel;
  }

  release(a: Attempt): void {
    a.release();
  }

  async run(a: Attempt): Promise<Outcome> {
    this.ctx.req.channelId = a.channel.id;
    if (!this.ctx.content && a.channel.setting.content_log)
      captureForChannel(this.relay.content, this.ctx, a.channel, this.res);
    try {
      return await this.relay.answer(this.ctx, a, this.res, this.signal);
    } finally {
      a.release();
    }
  }

  stop(): boolean {
    return this.signal.aborted || this.res.headersSent;
  }
}
