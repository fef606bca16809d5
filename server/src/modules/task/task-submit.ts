import { Injectable } from '@nestjs/common';
import { RelayCacheService, RelayError, Spending, taskEntry } from '../relay';
import { ContentLogService } from '../log';
import type { ChannelSnapshot, RelayContext } from '../relay';
import { TaskBillingService, TaskCharge, TaskRef } from './task-billing.service';
import { pickChannel } from './task-common';
import { TaskUpstream, UpstreamAnswer } from './task-upstream';

export interface TaskSubmission<P> {
  /** The channel that accepted the task. */
  channel: ChannelSnapshot;
  /** The held charge (refunded by the caller if the task is refused afterwards). */
  charge: TaskCharge;
  ref: (taskId: string) => TaskRef;
  /** The upstream's answer, and what `parse` made of it. */
  answer: UpstreamAnswer;
  parsed: P;
}

export interface SubmitArgs<P> {
  ctx: RelayContext;
  quota: number;
  platform: TaskRef['platform'];
  action: string;
  types: number[];
  /** The channel of the task acted upon (follow-ups go to the upstream that knows it). */
  fixed: ChannelSnapshot | null;
  path: string;
  body: (ch: ChannelSnapshot) => unknown;
  auth: (key: string) => Record<string, string>;
  timeoutMs: number;
  parse: (text: string) => P | null;
}

/**
 * A task submission, the same for every platform: the channel (the origin task's, else the choice of
 * the caller's group), the price held, the call with failover, and a full refund when no upstream
 * accepted it or its answer is not a submit result.
 */
@Injectable()
export class TaskSubmitter {
  constructor(
    private readonly cache: RelayCacheService,
    private readonly billing: TaskBillingService,
    private readonly upstream: TaskUpstream,
    private readonly spending: Spending,
    private readonly content: ContentLogService,
  ) {}

  async submit<P>(args: SubmitArgs<P>): Promise<TaskSubmission<P>> {
    const { ctx } = args;
    const channel = args.fixed ?? pickChannel(this.cache, ctx, args.types, 0, new Set());
    const base = { userId: ctx.user.id, platform: args.platform, action: args.action };
    // Content logs: the token or the user stores content (asked only when some does), or the channel.
    const byCaller = this.content.active && this.content.wants(ctx.token?.id ?? 0, ctx.user.id);
    const stored = byCaller || ContentLogService.channelWants(channel.setting);
    // The submission's spend ticket: limits, the budgets holding the task's price, the reservation with
    // its log row. The task then keeps the open reservation in its charge until it ends (task-billing).
    const charge: TaskCharge = this.billing.chargeOf(ctx, args.quota, stored);
    const ticket = this.spending.open(
      ctx,
      taskEntry(args.quota, this.billing.holdLog({ ...base, channelId: channel.id }, charge)),
    );
    await ticket.admit();
    charge.log_id = ticket.hold?.logId ?? null;
    charge.budget = ticket.budget;
    ticket.handOver();
    try {
      return await this.send(args, ticket.ctx, channel, charge, base, byCaller);
    } finally {
      ticket.close();
    }
  }

  private async send<P>(
    args: SubmitArgs<P>,
    ctx: RelayContext,
    first: ChannelSnapshot,
    charge: TaskCharge,
    base: Omit<TaskRef, 'taskId' | 'channelId'>,
    byCaller: boolean,
  ): Promise<TaskSubmission<P>> {
    let channel = first;
    const ref = (taskId: string): TaskRef => ({ ...base, channelId: channel.id, taskId });
    const sent = await this.upstream.submit({
      ctx,
      types: args.types,
      first: channel,
      fixed: !!args.fixed,
      path: args.path,
      body: args.body,
      auth: args.auth,
      timeoutMs: args.timeoutMs,
    });
    channel = sent.channel;
    // The channel that answered decides (failover may have left the first one): the task's later log
    // rows are marked only when the submission is stored.
    const stored = byCaller || ContentLogService.channelWants(channel.setting);
    if (stored) {
      charge.content_logged = true;
      this.storeContent(ctx, args.platform, args.path, channel, sent.answer, sent.error);
    } else delete charge.content_logged;
    if (!sent.answer) {
      this.billing.refund(ref(''), charge, sent.error.messageIn('en'));
      throw sent.error;
    }
    const answer = sent.answer;
    const parsed = args.parse(answer.text);
    if (!parsed) {
      this.billing.refund(ref(''), charge, 'the upstream answer is not a submit result');
      throw new RelayError(502, 'task_upstream_invalid', {}, '', 'upstream_error');
    }
    return { channel, charge, ref, answer, parsed };
  }

  /** The caller's submit request and the upstream's answer (or the error answered) go to the content logs. */
  private storeContent(
    ctx: RelayContext,
    platform: string,
    path: string,
    channel: ChannelSnapshot,
    answer: UpstreamAnswer | null,
    error: RelayError,
  ): void {
    const req = ctx.req;
    // The task routes keep the caller's body as sent (JSON); stored parsed, so paths can be redacted.
    let body: unknown = req.body;
    if (req.raw) {
      const raw = req.raw.toString('utf8');
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const text = answer
      ? answer.text
      : JSON.stringify({ error: { message: error.messageIn('en'), code: error.code } });
    this.content.recordAnswer(
      {
        requestId: req.requestId,
        userId: ctx.user.id,
        startedAt: ctx.startedAt,
        format: req.format,
        mode: platform,
        path: req.path ?? path,
        stream: false,
        body,
        multipart: false,
        headers: req.headers,
        secrets: [req.key ?? '', ...channel.keys],
        channelId: channel.id,
      },
      { overflow: false, text: () => text },
      answer ? answer.status : error.status,
      'application/json',
    );
  }
}
