import { Injectable } from '@nestjs/common';
import { RelayError, Spending, clientType } from '../relay';
import type { RelayContext } from '../relay';
import { LogType } from '../../database/entities';
import { Hold, LogDraft, Payer } from '../billing';
import { fixedQuota } from '../billing';
import { BudgetHold } from '../budget';
import { OptionService } from '../option';
import { logTextColumns, type LogText } from '../log';

/**
 * What a task's settlement needs to know, kept with the task row from submission to its end (the
 * reservation stays open while the task runs): who pays, the reserved amount, the consume-log row
 * written with the reservation, and the fields of that log.
 */
export interface TaskCharge {
  reserved: number;
  log_id: number | null;
  token_id: number;
  token_name: string;
  unlimited: boolean;
  username: string;
  group: string;
  model: string;
  ip: string;
  request_id: string;
  client_type: string;
  /** Unix seconds of the submission (the log's time). */
  created_at: number;
  model_price: number;
  group_ratio: number;
  user_group_ratio: number;
  /** What the task holds against its periodic budgets until it ends (none when no budget applies). */
  budget?: BudgetHold | null;
  /** The submission's request and the upstream's answer are stored (content logs). */
  content_logged?: boolean;
}

/** The task a settlement is about (it names the task in the log). */
export interface TaskRef {
  userId: number;
  channelId: number;
  platform: 'midjourney' | 'suno';
  action: string;
  taskId: string;
}

const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A stored charge read back; null when absent or not one of ours. */
export function chargeOf(v: unknown): TaskCharge | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.reserved !== 'number' || !Number.isSafeInteger(o.reserved) || o.reserved < 0) return null;
  return {
    reserved: o.reserved,
    log_id: typeof o.log_id === 'number' && Number.isSafeInteger(o.log_id) ? o.log_id : null,
    token_id: num(o.token_id),
    token_name: str(o.token_name),
    unlimited: o.unlimited === true,
    username: str(o.username),
    group: str(o.group),
    model: str(o.model),
    ip: str(o.ip),
    request_id: str(o.request_id),
    client_type: str(o.client_type) || 'other',
    created_at: num(o.created_at),
    model_price: num(o.model_price, -1),
    group_ratio: num(o.group_ratio, 1),
    user_group_ratio: num(o.user_group_ratio, -1),
    budget: budgetHoldOf(o.budget),
    ...(o.content_logged === true ? { content_logged: true } : {}),
  };
}

/** A stored budget hold read back; null when absent or not one. */
function budgetHoldOf(v: unknown): BudgetHold | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.amount !== 'number' || !Number.isSafeInteger(o.amount) || !Array.isArray(o.keys)) return null;
  const keys = o.keys.filter(
    (k): k is BudgetHold['keys'][number] =>
      !!k &&
      typeof k === 'object' &&
      ['token', 'user', 'group'].includes((k as Record<string, unknown>).scope as string) &&
      typeof (k as Record<string, unknown>).subject === 'string' &&
      ['day', 'week', 'month'].includes((k as Record<string, unknown>).period as string) &&
      typeof (k as Record<string, unknown>).start === 'number',
  );
  return keys.length ? { keys, amount: o.amount } : null;
}

/**
 * Billing of asynchronous tasks through the quota ledger. The whole per-call price (ModelPrice ×
 * QuotaPerUnit × group ratio) is reserved at submission, together with the consume-log row. When the
 * task ends, the reservation is settled once: as the charge when it succeeded (usage counters, channel
 * usage and the dashboard aggregate follow), or refunded in full when it failed or was refused, the
 * log row turning into an error log that says so.
 */
@Injectable()
export class TaskBillingService {
  constructor(
    private readonly options: OptionService,
    private readonly spending: Spending,
  ) {}

  /** The quota of one call of the context's model: its fixed price; free models cost 0. */
  quotaOf(ctx: RelayContext): number {
    const p = ctx.price;
    if (p.modelPrice >= 0) return fixedQuota(p);
    // Unpriced models accepted by self-use mode or the user's opt-in come with ratio 0: free.
    if (p.modelRatio === 0) return 0;
    throw new RelayError(403, 'task_price_required', { model: ctx.model }, '', 'model_price_error');
  }

  private logEnabled(): boolean {
    return this.options.bool('LogConsumeEnabled');
  }

  private payer(userId: number, c: TaskCharge): Payer {
    return { userId, tokenId: c.token_id, tokenUnlimited: c.unlimited };
  }

  private hold(userId: number, c: TaskCharge): Hold {
    return { payer: this.payer(userId, c), reserved: c.reserved, logId: c.log_id };
  }

  private draft(
    ref: TaskRef,
    c: TaskCharge,
    type: LogDraft['type'],
    quota: number,
    text: string | LogText,
  ): LogDraft {
    const other = {
      group: c.group,
      client_type: c.client_type,
      model_ratio: 0,
      model_price: c.model_price,
      completion_ratio: 1,
      group_ratio: c.group_ratio,
      user_group_ratio: c.user_group_ratio,
      platform: ref.platform,
      action: ref.action,
      task_id: ref.taskId,
      admin_info: { use_channel: [ref.channelId] },
      // The submission's content is stored (content logs): the console offers it from this row.
      ...(c.content_logged ? { content_logged: true } : {}),
    };
    // A keyed text is stored rendered in Chinese plus its key, so each reader sees it in their language.
    const columns = typeof text === 'string' ? { content: text, other } : logTextColumns(text, other);
    return {
      user_id: ref.userId,
      created_at: c.created_at,
      type,
      content: columns.content.slice(0, 2000),
      username: c.username,
      token_name: c.token_name,
      token_id: c.token_id,
      model_name: c.model,
      quota,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: Math.max(0, Math.round(Date.now() / 1000) - c.created_at),
      is_stream: false,
      channel_id: ref.channelId,
      group: c.group,
      ip: c.ip,
      request_id: c.request_id,
      other: JSON.stringify(columns.other),
    };
  }

  /**
   * What a task's settlement needs, for a submission of `quota` (its log row not written yet): the
   * submission's spend ticket holds it (taskEntry) and records the row's id and the budget hold here.
   */
  chargeOf(ctx: RelayContext, quota: number, contentLogged = false): TaskCharge {
    return {
      reserved: quota,
      log_id: null,
      token_id: ctx.token?.id ?? 0,
      token_name: ctx.tokenName,
      unlimited: ctx.token?.unlimited ?? true,
      username: ctx.user.username,
      group: ctx.group,
      model: ctx.model,
      ip: ctx.req.ip,
      request_id: ctx.req.requestId,
      client_type: clientType(ctx.req.userAgent),
      created_at: Math.floor(ctx.startedAt / 1000),
      model_price: ctx.price.modelPrice,
      group_ratio: ctx.price.groupRatio,
      user_group_ratio: ctx.price.userGroupRatio,
      budget: null,
      ...(contentLogged ? { content_logged: true } : {}),
    };
  }

  /** The consume-log row written with the reservation ("in progress"), or null with consume logs off. */
  holdLog(ref: Omit<TaskRef, 'taskId'>, c: TaskCharge): LogDraft | null {
    return this.logEnabled()
      ? this.draft({ ...ref, taskId: '' }, c, LogType.Consume, c.reserved, 'in progress')
      : null;
  }

  /** The upstream accepted the task: it counts as a successful request for the rate limits. */
  accepted(userId: number): void {
    this.spending.countSuccess(userId);
  }

  /** The task succeeded: the reservation becomes the charge and its log the final consume log. */
  succeed(ref: TaskRef, c: TaskCharge): void {
    const content = `${ref.platform} ${ref.action} ${ref.taskId}`.trim();
    this.spending.funding.settle({
      hold: this.hold(ref.userId, c),
      channelId: ref.channelId,
      charged: c.reserved,
      failed: false,
      log: this.logEnabled() ? this.draft(ref, c, LogType.Consume, c.reserved, content) : null,
      stat: { username: c.username, model: c.model, tokens: 0 },
    });
  }

  /** The task failed or was refused: the whole reservation goes back; an error log says why. */
  refund(ref: TaskRef, c: TaskCharge, reason: string): void {
    this.spending.budgets.release(c.budget);
    const what = `${ref.platform} ${ref.action}${ref.taskId ? ' ' + ref.taskId : ''}`;
    const content: LogText = reason
      ? { key: 'log_text_task_refunded', params: { what, reason: reason.slice(0, 1500), quota: c.reserved } }
      : { key: 'log_text_task_refunded_no_reason', params: { what, quota: c.reserved } };
    this.spending.funding.settle({
      hold: this.hold(ref.userId, c),
      channelId: ref.channelId,
      charged: 0,
      failed: true,
      log: this.draft(ref, c, LogType.Error, 0, content),
      stat: null,
    });
  }
}
