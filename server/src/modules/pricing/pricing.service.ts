import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { Ability } from '../../database/entities';
import { priceOf, PriceTables, priceTablesFrom } from '../billing';
import { OptionService } from '../option';
import { UserGroupsService } from '../user';
import type { UserSnapshot } from '../user';

/** One model of the pricing page. */
export interface PricingEntry {
  model_name: string;
  /** 0 pay per usage (ratios), 1 pay per call (model_price). */
  quota_type: 0 | 1;
  model_ratio: number;
  completion_ratio: number;
  /** USD per call; 0 for pay-per-usage models. */
  model_price: number;
  /** Groups whose enabled channels serve the model, sorted. */
  enable_groups: string[];
}

/**
 * `GET /api/pricing` (outside the envelope, for client compatibility). No `message` member, as on
 * new-api: clients tell this answer from an envelope by its absence (all-api-hub unwraps a body with
 * `message` to its `data` alone and loses the group tables).
 */
export interface PricingAnswer {
  success: true;
  data: PricingEntry[];
  /** The viewer's usable groups → the ratio the viewer pays in each. */
  group_ratio: Record<string, number>;
  /** The viewer's usable groups → description. */
  usable_group: Record<string, string>;
}

/** The served models change only with channels; the list is kept this long at most. */
const MODELS_TTL_MS = 30_000;

/** Models first by "gpt" prefix, then by name. */
export function comparePricing(a: string, b: string): number {
  const ga = a.startsWith('gpt') ? 0 : 1;
  const gb = b.startsWith('gpt') ? 0 : 1;
  if (ga !== gb) return ga - gb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The public pricing page: every model served by an enabled channel with its billing figures (the
 * relay's own price lookup), and the viewer's groups with their ratios. Visitors are priced as members
 * of the default group.
 */
@Injectable()
export class PricingService implements OnModuleInit {
  private served: { at: number; models: Map<string, string[]> } | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly groups: UserGroupsService,
    private readonly bus: CacheBus,
  ) {}

  onModuleInit(): void {
    this.bus.on('channels', () => (this.served = null));
  }

  private tables(): PriceTables {
    return priceTablesFrom(this.options);
  }

  /** Model → groups of its enabled abilities. */
  private async servedModels(): Promise<Map<string, string[]>> {
    if (this.served && Date.now() - this.served.at < MODELS_TTL_MS) return this.served.models;
    const rows = await this.ds
      .getRepository(Ability)
      .createQueryBuilder('a')
      .select('a.model', 'model')
      .addSelect('a.group', 'group')
      .where('a.enabled = :enabled', { enabled: true })
      .groupBy('a.model')
      .addGroupBy('a.group')
      .getRawMany<{ model: string; group: string }>();
    const models = new Map<string, string[]>();
    for (const r of rows) {
      const list = models.get(r.model) ?? [];
      list.push(r.group);
      models.set(r.model, list);
    }
    for (const list of models.values()) list.sort();
    this.served = { at: Date.now(), models };
    return models;
  }

  /**
   * Models served by an enabled channel that the relay cannot price (the same lookup it bills with,
   * prefixes included), sorted by name: calls to them are refused unless unpriced models are accepted.
   */
  async unpriced(): Promise<string[]> {
    const tables = this.tables();
    return [...(await this.servedModels()).keys()]
      .filter((model) => priceOf(tables, model, 'default', 'default') === null)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async pricing(viewer: UserSnapshot | null): Promise<PricingAnswer> {
    const tables = this.tables();
    const userGroup = viewer?.group || 'default';
    // Models without a price are refused by the relay unless unpriced models are accepted.
    const acceptUnpriced = this.options.bool('SelfUseModeEnabled') || !!viewer?.acceptUnsetModel;
    const data: PricingEntry[] = [];
    for (const [model, groups] of await this.servedModels()) {
      const price = priceOf(tables, model, userGroup, userGroup);
      if (!price && !acceptUnpriced) continue;
      const entry: PricingEntry = {
        model_name: model,
        quota_type: 0,
        model_ratio: 0,
        completion_ratio: price?.completionRatio ?? 1,
        model_price: 0,
        enable_groups: groups,
      };
      if (price && price.modelPrice >= 0) {
        entry.quota_type = 1;
        entry.model_price = price.modelPrice;
      } else if (price) entry.model_ratio = price.modelRatio;
      data.push(entry);
    }
    data.sort((a, b) => comparePricing(a.model_name, b.model_name));

    const group_ratio: Record<string, number> = {};
    const usable_group: Record<string, string> = {};
    for (const [group, info] of Object.entries(this.groups.usableGroups(userGroup))) {
      if (group === 'auto') continue;
      usable_group[group] = info.desc;
      group_ratio[group] = tables.groupGroupRatio[userGroup]?.[group] ?? tables.groupRatio[group] ?? 1;
    }
    return { success: true, data, group_ratio, usable_group };
  }
}
