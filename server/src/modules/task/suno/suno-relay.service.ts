import { Injectable, Logger } from '@nestjs/common';
import { RelayAdmission, RelayCacheService, RelayError, sanitizeUpstreamText } from '../../relay';
import type { ChannelSnapshot, InboundRequest } from '../../relay';
import { nowSeconds } from '../../../common/time';
import { OptionService } from '../../option';
import { TaskBillingService } from '../task-billing.service';
import { originChannel } from '../task-common';
import { cleanText, writeMeta } from '../task-meta';
import { TaskSubmitter } from '../task-submit';
import { SunoTaskStore } from './suno-tasks.service';
import {
  Json,
  parseSunoAnswer,
  planSuno,
  SUNO_CHANNEL_TYPES,
  SUNO_PLATFORM,
  SunoRoute,
  sunoModel,
  sunoTaskDto,
} from './suno-wire';

const SUBMIT_TIMEOUT_MS = 60_000;
export const MAX_SUNO_IDS = 500;

export interface SunoAnswer {
  status: number;
  text?: string;
  json?: unknown;
}

export const sunoAuth = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * The Suno relay (channel type 36): music and lyrics submissions authenticated with the caller's API
 * key, billed per call (suno_music, suno_lyrics; refunded when the task fails), recorded in `tasks`;
 * fetches answer from the recorded rows, kept current by the poller.
 */
@Injectable()
export class SunoRelay {
  private readonly logger = new Logger('SunoRelay');

  constructor(
    private readonly admission: RelayAdmission,
    private readonly cache: RelayCacheService,
    private readonly options: OptionService,
    private readonly billing: TaskBillingService,
    private readonly submitter: TaskSubmitter,
    private readonly store: SunoTaskStore,
  ) {}

  private gate(): void {
    if (!this.options.bool('TaskEnabled'))
      throw new RelayError(403, 'task_tasks_disabled', {}, '', 'task_disabled');
  }

  private async caller(inbound: InboundRequest): Promise<number> {
    return (await this.admission.caller(inbound.key, inbound.ip)).user.id;
  }

  async submit(inbound: InboundRequest, route: SunoRoute, body: () => Json): Promise<SunoAnswer> {
    this.gate();
    const caller = await this.admission.caller(inbound.key, inbound.ip);
    const plan = planSuno(route, body());
    inbound.pathModel = sunoModel(plan.action);
    inbound.body = { prompt: plan.input };
    const ctx = this.admission.admit(inbound, caller);
    const quota = this.billing.quotaOf(ctx);

    let fixed: ChannelSnapshot | null = null;
    if (plan.originId) {
      const origin = await this.store.findOwn(ctx.user.id, plan.originId);
      if (!origin) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_exist');
      fixed = originChannel(this.cache, origin.channel_id, SUNO_CHANNEL_TYPES);
    }
    const { channel, charge, ref, answer, parsed } = await this.submitter.submit({
      ctx,
      quota,
      platform: 'suno',
      action: plan.action,
      types: SUNO_CHANNEL_TYPES,
      fixed,
      path: `/suno/submit/${route}`,
      body: () => plan.body,
      auth: sunoAuth,
      timeoutMs: SUBMIT_TIMEOUT_MS,
      parse: parseSunoAnswer,
    });
    const taskId = typeof parsed.data === 'string' ? cleanText(parsed.data.trim(), 191) : '';
    if (parsed.code !== 'success' || !taskId) {
      const reason = sanitizeUpstreamText(
        parsed.message || (parsed.code === 'success' ? 'no task id in the answer' : parsed.code),
      );
      this.billing.refund(ref(''), charge, reason);
      throw new RelayError(
        400,
        'task_upstream_failed',
        { reason },
        '',
        parsed.code === 'success' ? 'upstream_error' : parsed.code.slice(0, 64),
      );
    }
    const now = nowSeconds();
    const row = this.store.repo.create({
      created_at: now,
      updated_at: now,
      task_id: taskId,
      platform: SUNO_PLATFORM,
      user_id: ctx.user.id,
      channel_id: channel.id,
      quota,
      action: plan.action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: now,
      start_time: 0,
      finish_time: 0,
      progress: '0%',
      properties: writeMeta({ upstream: null, charge, notify_hook: '', input: plan.input }),
      data: null,
    });
    try {
      await this.store.repo.insert(row);
    } catch (err) {
      this.logger.error(`suno task of user ${ctx.user.id} not saved: ${(err as Error).message}`);
      this.billing.refund(ref(taskId), charge, 'the task could not be saved');
      throw new RelayError(500, 'task_save_failed', {}, '', 'save_failed');
    }
    this.billing.accepted(ctx.user.id);
    return { status: answer.status, text: answer.text };
  }

  async fetchOne(inbound: InboundRequest, taskId: string): Promise<SunoAnswer> {
    this.gate();
    const userId = await this.caller(inbound);
    const row = taskId && taskId.length <= 191 ? await this.store.findOwn(userId, taskId) : null;
    if (!row) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_exist');
    return { status: 200, json: { code: 'success', message: '', data: sunoTaskDto(row) } };
  }

  async fetchMany(inbound: InboundRequest, read: () => Json): Promise<SunoAnswer> {
    this.gate();
    const userId = await this.caller(inbound);
    const body = read();
    const ids = body.ids ?? [];
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length > 191))
      throw new RelayError(
        400,
        'task_bad_body',
        { reason: 'ids must be an array of task ids' },
        '',
        'invalid_request',
      );
    if (body.action !== undefined && body.action !== null && typeof body.action !== 'string')
      throw new RelayError(
        400,
        'task_bad_body',
        { reason: 'action must be a string' },
        '',
        'invalid_request',
      );
    const unique = [...new Set(ids as string[])].filter(Boolean);
    if (unique.length > MAX_SUNO_IDS)
      throw new RelayError(400, 'task_too_many_ids', { max: MAX_SUNO_IDS }, '', 'invalid_request');
    let rows = await this.store.findOwnMany(userId, unique);
    const action = typeof body.action === 'string' ? body.action.toUpperCase() : '';
    if (action) rows = rows.filter((r) => r.action === action);
    return { status: 200, json: { code: 'success', message: '', data: rows.map(sunoTaskDto) } };
  }
}
