import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { BlockedAddressError, SafeHttpClient } from '../../common/safe-http';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { Channel, ChannelStatus, LogEntry, LogType } from '../../database/entities';
import { CHANNEL_TYPES } from '../channel';
import type { ChannelSnapshot } from '../relay';
import { RelayCacheService, sanitizeUpstreamText, UpstreamClient } from '../relay';
import {
  AccountRequest,
  BALANCE_TYPES,
  balancePlan,
  modelListPlan,
  UnexpectedAnswerError,
  UnsupportedError,
} from './provider-accounts';
import type { ClientTypeSeen, GroupSeen, UpstreamGroups } from './channel-ops.view';

/** Pages of a model list followed at most (Gemini and Anthropic page their lists). */
const MAX_MODEL_PAGES = 20;
/** Log rows read per query when aggregating a channel's traffic. */
const DETECTION_BATCH = 5000;

/**
 * Admin operations on a channel's upstream account: balance (one, or all in the background), the
 * provider's model list, and who has been calling through the channel. Every call to a provider goes
 * through the SSRF-safe client: private addresses only when ALLOW_PRIVATE_OUTBOUND is on.
 */
@Injectable()
export class ChannelOpsService implements OnModuleDestroy {
  private readonly logger = new Logger('ChannelOps');
  private readonly http: SafeHttpClient;
  private balanceRun: Promise<void> | null = null;
  private stopping = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly cache: RelayCacheService,
    upstream: UpstreamClient,
  ) {
    // Model lists and balances are channel calls: the same address rule as the relay's.
    this.http = new SafeHttpClient(upstream.policy, config.outboundCa);
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  private async channel(id: number): Promise<ChannelSnapshot> {
    await this.cache.reloadChannels();
    const ch = this.cache.channels.byId.get(id);
    if (!ch) throw new AppError('channel_not_found');
    return ch;
  }

  /** GETs a provider URL and parses its JSON answer; failures become the clear errors of this area. */
  private async getJson(req: AccountRequest): Promise<unknown> {
    let res;
    try {
      res = await this.http.fetch(req.url, { headers: req.headers, timeoutMs: 15_000, maxBytes: 4 << 20 });
    } catch (err) {
      if (err instanceof BlockedAddressError)
        throw new AppError('channel_ops_address_blocked', { host: err.target });
      throw new AppError('channel_ops_upstream_unreachable', {
        reason: sanitizeUpstreamText((err as Error).message),
      });
    }
    if (res.status < 200 || res.status >= 300) {
      throw new AppError('channel_ops_upstream_status', {
        status: res.status,
        body: sanitizeUpstreamText(res.body.slice(0, 300)),
      });
    }
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      throw new AppError('channel_ops_upstream_answer', { field: 'JSON' });
    }
  }

  // ---- balance

  /** Asks the provider for the channel's balance and stores it with balance_updated_time. */
  async updateBalance(id: number): Promise<number> {
    const ch = await this.channel(id);
    let plan;
    try {
      plan = balancePlan(ch.type, ch.baseUrl, ch.keys[0] ?? '');
    } catch (err) {
      if (err instanceof UnsupportedError)
        throw new AppError('channel_ops_balance_unsupported', { type: typeName(ch.type) });
      throw err;
    }
    const answers: unknown[] = [];
    for (const r of plan.requests) answers.push(await this.getJson(r));
    let balance: number;
    try {
      balance = plan.read(answers);
    } catch (err) {
      if (err instanceof UnexpectedAnswerError)
        throw new AppError('channel_ops_upstream_answer', { field: err.message });
      throw err;
    }
    await this.ds.getRepository(Channel).update({ id }, { balance, balance_updated_time: nowSeconds() });
    return balance;
  }

  /** Updates every enabled channel of a type with a balance endpoint, one after another, one run at a time. */
  updateAllBalances(): { started: boolean } {
    if (this.balanceRun) return { started: false };
    this.balanceRun = (async () => {
      try {
        const rows = await this.ds
          .getRepository(Channel)
          .find({ select: { id: true, type: true, status: true } });
        for (const row of rows) {
          if (this.stopping) break;
          if (row.status !== ChannelStatus.Enabled || !BALANCE_TYPES.has(row.type)) continue;
          await this.updateBalance(row.id).catch((err: unknown) =>
            this.logger.warn(
              `balance of channel ${row.id}: ${err instanceof AppError ? err.key : (err as Error).message}`,
            ),
          );
        }
      } finally {
        this.balanceRun = null;
      }
    })();
    return { started: true };
  }

  /** Resolves when the current update-all run (if any) has finished. */
  async balancesSettled(): Promise<void> {
    await this.balanceRun;
  }

  // ---- upstream model lists

  async fetchModelsOf(id: number): Promise<string[]> {
    const ch = await this.channel(id);
    return this.fetchModels(ch.type, ch.baseUrl, ch.keys.join('\n'));
  }

  /** The provider's model ids, sorted and unique. */
  async fetchModels(type: number, baseUrl: string, key: string): Promise<string[]> {
    let plan;
    try {
      plan = modelListPlan(type, baseUrl || CHANNEL_TYPES[type]?.baseUrl || '', key);
    } catch (err) {
      if (err instanceof UnsupportedError)
        throw new AppError('channel_ops_models_unsupported', { type: typeName(type) });
      throw err;
    }
    const found = new Set<string>();
    let next: AccountRequest | null = plan.first;
    for (let page = 0; next && page < MAX_MODEL_PAGES; page++) {
      const { ids, next: following } = plan.read(await this.getJson(next));
      for (const m of ids) found.add(m);
      next = following;
    }
    return [...found].sort();
  }

  // ---- upstream detection

  /**
   * Who has called through the channel (docs/decisions.md#upstream-detection): per group the first and last consume log, and
   * per client type (from the caller's User-Agent, recorded in the log's `other.client_type`) the count
   * and first/last seen. Read in id order in batches, so a busy channel never loads all rows at once.
   */
  async detectUpstream(id: number): Promise<UpstreamGroups> {
    const exists = await this.ds.getRepository(Channel).exists({ where: { id } });
    if (!exists) throw new AppError('channel_not_found');
    const groups = new Map<string, GroupSeen & { byClient: Map<string, ClientTypeSeen> }>();
    let after = 0;
    for (;;) {
      const rows = await this.ds
        .getRepository(LogEntry)
        .createQueryBuilder('l')
        .select(['l.id', 'l.group', 'l.created_at', 'l.other'])
        .where('l.channel_id = :id AND l.type = :type AND l.id > :after', {
          id,
          type: LogType.Consume,
          after,
        })
        .orderBy('l.id', 'ASC')
        .limit(DETECTION_BATCH)
        .getMany();
      for (const row of rows) {
        const at = Number(row.created_at);
        const name = row.group || 'default';
        let g = groups.get(name);
        if (!g) {
          g = { group: name, first_seen: at, last_seen: at, client_types: [], byClient: new Map() };
          groups.set(name, g);
        }
        g.first_seen = Math.min(g.first_seen, at);
        g.last_seen = Math.max(g.last_seen, at);
        const client = clientTypeOf(row.other);
        const c = g.byClient.get(client);
        if (c) {
          c.count++;
          c.first_seen = Math.min(c.first_seen, at);
          c.last_seen = Math.max(c.last_seen, at);
        } else g.byClient.set(client, { client_type: client, count: 1, first_seen: at, last_seen: at });
      }
      if (rows.length < DETECTION_BATCH) break;
      after = Number(rows[rows.length - 1].id);
    }
    return {
      groups: [...groups.values()]
        .sort((a, b) => b.last_seen - a.last_seen || a.group.localeCompare(b.group))
        .map(({ byClient, ...g }) => ({
          ...g,
          client_types: [...byClient.values()].sort(
            (a, b) => b.count - a.count || a.client_type.localeCompare(b.client_type),
          ),
        })),
    };
  }
}

function typeName(type: number): string {
  return CHANNEL_TYPES[type]?.name ?? String(type);
}

function clientTypeOf(other: string | null): string {
  if (!other || !other.includes('client_type')) return 'other';
  try {
    const v = (JSON.parse(other) as Record<string, unknown>).client_type;
    return typeof v === 'string' && v !== '' ? v : 'other';
  } catch {
    return 'other';
  }
}
