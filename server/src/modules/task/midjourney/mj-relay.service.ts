import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import {
  ChannelHealthService,
  RelayAdmission,
  RelayCacheService,
  RelayError,
  sanitizeUpstreamText,
} from '../../relay';
import type { ChannelSnapshot, InboundRequest } from '../../relay';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/app-config';
import { Midjourney } from '../../../database/entities';
import { SafeHttpClient } from '../../../common/safe-http';
import { OptionService } from '../../option';
import { TaskBillingService } from '../task-billing.service';
import { httpUrl, notifySignature, originChannel, signatureValid } from '../task-common';
import { cleanText, parseJson, writeMeta } from '../task-meta';
import { TaskSubmitter } from '../task-submit';
import { MjTaskStore } from './mj-tasks.service';
import {
  clearModes,
  Json,
  MJ_ACCEPTED,
  MJ_CHANNEL_TYPES,
  MJ_FINISHED,
  MJ_FREE_ACTIONS,
  MJ_NO_INSTANCE,
  MjRoute,
  mjModel,
  MjTaskDto,
  mjTaskDto,
  parseSubmitAnswer,
  planMj,
  upstreamBody,
} from './mj-wire';

const SUBMIT_TIMEOUT_MS = 60_000;
const IMAGE_TIMEOUT_MS = 30_000;
const IMAGE_MAX_BYTES = 32 * 1024 * 1024;
/** Ids per list-by-condition call. */
export const MAX_IDS = 500;

/** An answer in the proxy's own format: JSON text as the upstream sent it, or a value to serialise. */
export interface MjAnswer {
  status: number;
  text?: string;
  json?: unknown;
}

const mjAuth = (key: string) => ({ 'mj-api-secret': key });

/**
 * The Midjourney-proxy relay (channel types 2 and 5): submissions are authenticated with the caller's
 * API key (relay rules: token, user, model limits, group, price, sensitive words, rate limits), billed
 * per call at submission (refunded when the task fails), sent to a channel, and recorded in
 * `midjourneys`; task answers come from the recorded rows, which the poller and the proxy's callbacks
 * keep current.
 */
@Injectable()
export class MidjourneyRelay implements OnModuleDestroy {
  private readonly logger = new Logger('MidjourneyRelay');
  private readonly images: SafeHttpClient;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly admission: RelayAdmission,
    private readonly cache: RelayCacheService,
    private readonly options: OptionService,
    private readonly billing: TaskBillingService,
    private readonly submitter: TaskSubmitter,
    private readonly health: ChannelHealthService,
    private readonly store: MjTaskStore,
  ) {
    this.images = SafeHttpClient.forConfig(config, options);
  }

  async onModuleDestroy(): Promise<void> {
    await this.images.close();
  }

  private gate(): void {
    if (!this.options.bool('DrawingEnabled'))
      throw new RelayError(403, 'task_drawing_disabled', {}, '', 'drawing_disabled');
  }

  /** The caller's user id from the API key, refusing banned and deregistered users. */
  private async caller(inbound: InboundRequest): Promise<number> {
    return (await this.admission.caller(inbound.key, inbound.ip)).user.id;
  }

  private dto(row: Midjourney): MjTaskDto {
    return mjTaskDto(row, this.options.bool('MjForwardUrlEnabled'), this.options.get('ServerAddress'));
  }

  /** The gateway's callback address for a channel, when callbacks are on and ServerAddress is set. */
  private notifyHookOf(ch: ChannelSnapshot): string {
    const base = this.options.get('ServerAddress').replace(/\/+$/, '');
    if (!this.options.bool('MjNotifyEnabled') || !base) return '';
    return `${base}/mj/notify?channel=${ch.id}&sig=${notifySignature(this.config.sessionSecret, ch.id)}`;
  }

  // ---------------------------------------------------------------- submissions

  async submit(inbound: InboundRequest, route: MjRoute, body: () => Json): Promise<MjAnswer> {
    this.gate();
    const caller = await this.admission.caller(inbound.key, inbound.ip);
    const json = body();
    const plan = planMj(route, json);
    let callerHook = '';
    if (plan.notifyHook && this.options.bool('MjNotifyEnabled')) {
      callerHook = httpUrl(plan.notifyHook) ?? '';
      if (!callerHook)
        throw new RelayError(
          400,
          'task_bad_body',
          { reason: 'notifyHook must be an http(s) URL' },
          '',
          'invalid_request',
        );
    }
    inbound.pathModel = mjModel(plan.action);
    inbound.body = { prompt: typeof json.prompt === 'string' ? json.prompt : '' };
    const ctx = this.admission.admit(inbound, caller);
    const quota = MJ_FREE_ACTIONS.has(plan.action) ? 0 : this.billing.quotaOf(ctx);

    let prompt = plan.prompt;
    let fixed: ChannelSnapshot | null = null;
    if (plan.originId) {
      const origin = await this.store.findOwn(ctx.user.id, plan.originId);
      if (!origin) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_found');
      if (
        this.options.bool('MjActionCheckSuccessEnabled') &&
        plan.action !== 'MODAL' &&
        origin.status !== 'SUCCESS'
      )
        throw new RelayError(400, 'task_origin_not_success', {}, '', 'task_status_not_success');
      fixed = originChannel(this.cache, origin.channel_id, MJ_CHANNEL_TYPES);
      prompt ||= origin.prompt ?? '';
    }
    const modeClear = this.options.bool('MjModeClearEnabled');
    const accountFilter = this.options.bool('MjAccountFilterEnabled');
    if (modeClear && prompt) prompt = clearModes(prompt);

    // The call; another channel is tried (up to RetryTimes) when the upstream itself failed.
    const { channel, charge, ref, answer, parsed } = await this.submitter.submit({
      ctx,
      quota,
      platform: 'midjourney',
      action: plan.action,
      types: MJ_CHANNEL_TYPES,
      fixed,
      path: `/mj/submit/${route}`,
      body: (ch) => upstreamBody(json, { accountFilter, modeClear, notifyHook: this.notifyHookOf(ch) }),
      auth: mjAuth,
      timeoutMs: SUBMIT_TIMEOUT_MS,
      parse: parseSubmitAnswer,
    });

    const now = Date.now();
    const upload = plan.action === 'UPLOAD';
    const mjId =
      typeof parsed.result === 'string' || typeof parsed.result === 'number'
        ? cleanText(String(parsed.result), 191)
        : '';
    const urls = Array.isArray(parsed.result)
      ? parsed.result.filter((u): u is string => typeof u === 'string')
      : [];
    let accepted = MJ_ACCEPTED.has(parsed.code);
    let failReason = '';
    if (!accepted)
      failReason = sanitizeUpstreamText(parsed.description || `submission refused (code ${parsed.code})`);
    else if (!upload && !mjId) {
      accepted = false;
      failReason = 'the upstream accepted the task without giving its id';
    }
    const row = this.store.repo.create({
      code: parsed.code,
      user_id: ctx.user.id,
      action: plan.action,
      mj_id: mjId,
      prompt: cleanText(prompt, 65_536),
      prompt_en: '',
      description: cleanText(parsed.description, 2000),
      state: plan.state,
      created_at: now,
      submit_time: now,
      start_time: 0,
      finish_time: 0,
      image_url: '',
      status: accepted ? 'SUBMITTED' : 'FAILURE',
      progress: accepted ? '0%' : '100%',
      fail_reason: cleanText(failReason, 2000),
      channel_id: channel.id,
      quota: accepted ? quota : 0,
      buttons: '[]',
      properties: writeMeta({ upstream: parsed.properties, charge, notify_hook: callerHook, input: '' }),
    });
    if (accepted) {
      const props = parsed.properties ?? {};
      if (upload) this.finishNow(row, now, urls[0] ?? '');
      else if (parsed.code === 21 && MJ_FREE_ACTIONS.has(plan.action)) row.status = 'MODAL';
      else if (parsed.code === 21 && props.status === 'SUCCESS' && typeof props.imageUrl === 'string')
        this.finishNow(row, now, cleanText(props.imageUrl, 4096));
    } else row.finish_time = now;

    try {
      await this.store.repo.insert(row);
    } catch (err) {
      this.logger.error(`drawing task of user ${ctx.user.id} not saved: ${(err as Error).message}`);
      this.billing.refund(ref(mjId), charge, 'the task could not be saved');
      throw new RelayError(500, 'task_save_failed', {}, '', 'save_failed');
    }
    if (!accepted) {
      this.billing.refund(ref(mjId), charge, failReason);
      if (parsed.code === MJ_NO_INSTANCE) this.disableNoInstance(channel);
    } else {
      this.billing.accepted(ctx.user.id);
      if (MJ_FINISHED.includes(row.status)) this.billing.succeed(ref(mjId), charge);
    }
    if (accepted) {
      // The proxy's answer as it is, unless it echoes the gateway's callback address.
      if (!answer.text.includes('/mj/notify')) return { status: answer.status, text: answer.text };
      const o = parseJson(answer.text) as Json;
      return { status: answer.status, json: { ...o, properties: parsed.properties ?? {} } };
    }
    if (MJ_ACCEPTED.has(parsed.code))
      throw new RelayError(502, 'task_upstream_invalid', {}, '', 'upstream_error');
    // A refusal goes back in the proxy's shape, its text scrubbed of addresses and key-like strings.
    return {
      status: answer.status,
      json: {
        code: parsed.code,
        description: row.fail_reason,
        result: parsed.result ?? null,
        properties: parsed.properties ?? {},
      },
    };
  }

  private finishNow(row: Midjourney, now: number, imageUrl: string): void {
    row.status = 'SUCCESS';
    row.progress = '100%';
    row.start_time = now;
    row.finish_time = now;
    row.image_url = imageUrl;
  }

  private disableNoInstance(ch: ChannelSnapshot): void {
    if (!this.options.bool('AutomaticDisableChannelEnabled') || !ch.autoBan) return;
    void this.health.disable(ch.id, ch.name, 'No available account instance');
  }

  // ---------------------------------------------------------------- task answers

  async fetch(inbound: InboundRequest, mjId: string): Promise<MjAnswer> {
    this.gate();
    const userId = await this.caller(inbound);
    const row = mjId && mjId.length <= 191 ? await this.store.findOwn(userId, mjId) : null;
    if (!row) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_found');
    return { status: 200, json: this.dto(row) };
  }

  async listByCondition(inbound: InboundRequest, body: () => Json): Promise<MjAnswer> {
    this.gate();
    const userId = await this.caller(inbound);
    const ids = body().ids ?? [];
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length > 191))
      throw new RelayError(
        400,
        'task_bad_body',
        { reason: 'ids must be an array of task ids' },
        '',
        'invalid_request',
      );
    const unique = [...new Set(ids as string[])].filter(Boolean);
    if (unique.length > MAX_IDS)
      throw new RelayError(400, 'task_too_many_ids', { max: MAX_IDS }, '', 'invalid_request');
    const rows = await this.store.findOwnMany(userId, unique);
    return { status: 200, json: rows.map((r) => this.dto(r)) };
  }

  // ---------------------------------------------------------------- the proxy's callback

  /**
   * The proxy's callback (`notifyHook` the gateway sent): authenticated by the channel-bound signature
   * of the address, it moves the channel's unfinished task with that id forward (like a poll).
   */
  async notify(query: Record<string, unknown>, body: Json | null): Promise<MjAnswer> {
    const channelId =
      typeof query.channel === 'string' && /^\d{1,9}$/.test(query.channel) ? Number(query.channel) : 0;
    const sig = typeof query.sig === 'string' ? query.sig : '';
    if (!channelId || !signatureValid(this.config.sessionSecret, channelId, sig))
      throw new RelayError(401, 'task_notify_unauthorized', {}, '', 'unauthorized');
    const id = body && (typeof body.id === 'string' || typeof body.id === 'number') ? String(body.id) : '';
    if (!body || !id || id.length > 191)
      throw new RelayError(400, 'task_bad_body', { reason: 'id is required' }, '', 'invalid_request');
    const rows = await this.store.repo.find({ where: { mj_id: id, channel_id: channelId } });
    if (!rows.length) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_found');
    for (const row of rows) await this.store.apply(row, body);
    return { status: 200, json: { code: 1, description: 'success', result: id } };
  }

  // ---------------------------------------------------------------- image proxy

  /** `/mj/image/{id}` with MjForwardUrlEnabled: the task's result image, fetched by the gateway. */
  async image(mjId: string): Promise<{ contentType: string; body: Buffer; final: boolean }> {
    if (!this.options.bool('DrawingEnabled') || !this.options.bool('MjForwardUrlEnabled'))
      throw new RelayError(404, 'task_image_disabled', {}, '', 'not_found');
    const row =
      mjId && mjId.length <= 191
        ? await this.store.repo.findOne({ where: { mj_id: mjId }, order: { id: 'DESC' } })
        : null;
    if (!row?.image_url) throw new RelayError(404, 'task_not_found', {}, '', 'task_not_found');
    let got;
    try {
      got = await this.images.fetchBytes(row.image_url, {
        timeoutMs: IMAGE_TIMEOUT_MS,
        maxBytes: IMAGE_MAX_BYTES,
        maxRedirects: 3,
      });
    } catch (err) {
      this.logger.warn(`image of task ${mjId} not fetched: ${(err as Error).message}`);
      throw new RelayError(502, 'task_image_unavailable', {}, '', 'upstream_error');
    }
    // Only images are served from the gateway's origin (never HTML or scripts from elsewhere).
    const header = got.headers['content-type'];
    const type =
      (typeof header === 'string' ? header : '').split(';')[0].trim().toLowerCase() || 'image/jpeg';
    if (got.status !== 200 || !/^image\/[a-z0-9.+-]+$/.test(type) || type === 'image/svg+xml')
      throw new RelayError(502, 'task_image_unavailable', {}, '', 'upstream_error');
    return { contentType: type, body: got.body, final: row.status === 'SUCCESS' };
  }
}
