import type { UsageCounts } from './usage-counts';

/** The option values pricing reads, as parsed maps. */
export interface PriceTables {
  quotaPerUnit: number;
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
  cacheRatio: Record<string, number>;
  cacheCreationRatio: Record<string, number>;
  /** One-hour cache writes (Anthropic's `ttl: "1h"`); the five-minute ones use cacheCreationRatio. */
  cacheCreation1hRatio?: Record<string, number>;
  imageRatio: Record<string, number>;
  audioRatio: Record<string, number>;
  audioCompletionRatio: Record<string, number>;
  groupRatio: Record<string, number>;
  groupGroupRatio: Record<string, Record<string, number>>;
}

/** The price of one request's model and group, recorded in the log's `other`. */
export interface Price {
  /** USD per call, or -1 when billed by tokens. */
  modelPrice: number;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheCreationRatio: number;
  /** Ratio of one-hour cache writes (default 2, Anthropic's price of a one-hour write). */
  cacheCreation1hRatio?: number;
  imageRatio: number;
  audioRatio: number;
  audioCompletionRatio: number;
  groupRatio: number;
  /** The GroupGroupRatio override that applied, or -1. */
  userGroupRatio: number;
  quotaPerUnit: number;
}

export const DEFAULT_CACHE_CREATION_RATIO = 1.25;
export const DEFAULT_CACHE_CREATION_1H_RATIO = 2;
/** A quota amount never exceeds this (it is a 64-bit column read into a JS number). */
export const MAX_QUOTA = Number.MAX_SAFE_INTEGER;

/**
 * Looks a model up in a ratio map: the exact name first, then the longest key that prefixes it
 * (so `gpt-4o-2024-08-06` uses `gpt-4o`, `claude-sonnet-4-20250514` uses `claude-sonnet-4`).
 */
export function lookup(map: Record<string, number>, model: string): number | undefined {
  // Numbers only (the option's values are checked to be): an inherited `constructor` or `toString` is
  // no price.
  const exact: unknown = map[model];
  if (typeof exact === 'number') return exact;
  let best: string | undefined;
  for (const key of Object.keys(map))
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : map[best];
}

/**
 * The price of `model` for a user of `userGroup` calling through `group`, or null when the model is
 * unpriced (neither ModelPrice nor ModelRatio knows it).
 */
export function priceOf(t: PriceTables, model: string, userGroup: string, group: string): Price | null {
  const fixed = lookup(t.modelPrice, model);
  const ratio = lookup(t.modelRatio, model);
  if (fixed === undefined && ratio === undefined) return null;
  const override = t.groupGroupRatio[userGroup]?.[group];
  return {
    modelPrice: fixed ?? -1,
    modelRatio: fixed !== undefined ? 0 : (ratio ?? 0),
    completionRatio: lookup(t.completionRatio, model) ?? 1,
    cacheRatio: lookup(t.cacheRatio, model) ?? 1,
    cacheCreationRatio: lookup(t.cacheCreationRatio, model) ?? DEFAULT_CACHE_CREATION_RATIO,
    cacheCreation1hRatio: lookup(t.cacheCreation1hRatio ?? {}, model) ?? DEFAULT_CACHE_CREATION_1H_RATIO,
    imageRatio: lookup(t.imageRatio, model) ?? 1,
    audioRatio: lookup(t.audioRatio, model) ?? 1,
    audioCompletionRatio: lookup(t.audioCompletionRatio, model) ?? 1,
    groupRatio: override ?? t.groupRatio[group] ?? 1,
    userGroupRatio: override ?? -1,
    quotaPerUnit: t.quotaPerUnit,
  };
}

/** Saturating multiply-and-round: never NaN, never negative, never beyond MAX_QUOTA. */
export function clampQuota(x: number): number {
  if (!Number.isFinite(x)) return x > 0 ? MAX_QUOTA : 0;
  return Math.min(MAX_QUOTA, Math.max(0, Math.round(x)));
}

/** Quota of a fixed-price call: ModelPrice × QuotaPerUnit × group ratio × count (images: n). */
export function fixedQuota(p: Price, count = 1): number {
  return clampQuota(p.modelPrice * p.quotaPerUnit * p.groupRatio * Math.max(1, count));
}

/**
 * Quota of a token-billed request. Prompt tokens are split into plain, cached, cache-creation,
 * audio and image parts, each weighted by its ratio; completion tokens by CompletionRatio (audio
 * completion by AudioRatio × AudioCompletionRatio). A request that used tokens costs at least 1.
 */
export function usageQuota(p: Price, u: UsageCounts): number {
  if (p.modelPrice >= 0) return fixedQuota(p);
  const audioIn = u.audio_prompt_tokens ?? 0;
  const imageIn = u.image_prompt_tokens ?? 0;
  const audioOut = u.audio_completion_tokens ?? 0;
  const plainIn = Math.max(
    0,
    u.prompt_tokens - u.cached_tokens - u.cache_creation_tokens - audioIn - imageIn,
  );
  const plainOut = Math.max(0, u.completion_tokens - audioOut);
  const write1h = Math.min(u.cache_creation_1h_tokens ?? 0, u.cache_creation_tokens);
  const weighted =
    plainIn +
    u.cached_tokens * p.cacheRatio +
    (u.cache_creation_tokens - write1h) * p.cacheCreationRatio +
    write1h * (p.cacheCreation1hRatio ?? DEFAULT_CACHE_CREATION_1H_RATIO) +
    audioIn * p.audioRatio +
    imageIn * p.imageRatio +
    plainOut * p.completionRatio +
    audioOut * p.audioRatio * p.audioCompletionRatio;
  const quota = clampQuota(weighted * p.modelRatio * p.groupRatio);
  if (quota === 0 && p.modelRatio > 0 && p.groupRatio > 0 && u.prompt_tokens + u.completion_tokens > 0)
    return 1;
  return quota;
}

/** What to reserve before the call: PreConsumedQuota plus the most the answer may cost. */
export function reserveQuota(p: Price, promptTokens: number, maxTokens: number, preConsumed: number): number {
  if (p.modelPrice >= 0) return fixedQuota(p);
  const estimate = (promptTokens + Math.max(0, maxTokens) * p.completionRatio) * p.modelRatio * p.groupRatio;
  return clampQuota(preConsumed + estimate);
}

/** What the price tables are read from (the options service). */
type PriceTableKey =
  | 'ModelPrice'
  | 'ModelRatio'
  | 'CompletionRatio'
  | 'CacheRatio'
  | 'CacheCreationRatio'
  | 'CacheCreation1hRatio'
  | 'ImageRatio'
  | 'AudioRatio'
  | 'AudioCompletionRatio'
  | 'GroupRatio';

export interface PriceOptions {
  num(key: 'QuotaPerUnit'): number;
  json(key: PriceTableKey): Record<string, number>;
  json(key: 'GroupGroupRatio'): Record<string, Record<string, number>>;
}

/** The price tables as the options hold them now. */
export function priceTablesFrom(o: PriceOptions): PriceTables {
  const table = (key: PriceTableKey) => o.json(key);
  return {
    quotaPerUnit: o.num('QuotaPerUnit'),
    modelPrice: table('ModelPrice'),
    modelRatio: table('ModelRatio'),
    completionRatio: table('CompletionRatio'),
    cacheRatio: table('CacheRatio'),
    cacheCreationRatio: table('CacheCreationRatio'),
    cacheCreation1hRatio: table('CacheCreation1hRatio'),
    imageRatio: table('ImageRatio'),
    audioRatio: table('AudioRatio'),
    audioCompletionRatio: table('AudioCompletionRatio'),
    groupRatio: table('GroupRatio'),
    groupGroupRatio: o.json('GroupGroupRatio'),
  };
}

/** Prices a memo keeps before it starts again (model names come from callers: any prefix of a key is priced). */
const PRICE_MEMO_LIMIT = 4096;

/**
 * The priced models' prices by group, kept until the options change (`revision`): a request's price is
 * three map reads instead of the tables' nine searches, each of which, for a model a table does not name,
 * lists and tries every key of the table as a prefix. Unpriced models are not kept (their price is
 * looked up again, as before), and the memo starts again past PRICE_MEMO_LIMIT prices. A kept price is
 * frozen: every call of the model and groups shares it.
 */
export class PriceMemo {
  private revision = NaN;
  private current: PriceTables | null = null;
  /** By the user's group, then the group called through, then the model. */
  private readonly prices = new Map<string, Map<string, Map<string, Price>>>();
  private size = 0;

  constructor(private readonly options: PriceOptions & { readonly revision: number }) {}

  /** The price tables as the options hold them now. */
  tables(): PriceTables {
    if (this.options.revision !== this.revision || !this.current) {
      this.current = priceTablesFrom(this.options);
      this.revision = this.options.revision;
      this.prices.clear();
      this.size = 0;
    }
    return this.current;
  }

  /** `priceOf(tables(), model, userGroup, group)`. */
  price(model: string, userGroup: string, group: string): Price | null {
    const tables = this.tables();
    const kept = this.prices.get(userGroup)?.get(group)?.get(model);
    if (kept) return kept;
    const price = priceOf(tables, model, userGroup, group);
    if (!price) return null;
    if (this.size >= PRICE_MEMO_LIMIT) {
      this.prices.clear();
      this.size = 0;
    }
    let groups = this.prices.get(userGroup);
    if (!groups) this.prices.set(userGroup, (groups = new Map<string, Map<string, Price>>()));
    let models = groups.get(group);
    if (!models) groups.set(group, (models = new Map<string, Price>()));
    models.set(model, Object.freeze(price));
    this.size++;
    return price;
  }
}
