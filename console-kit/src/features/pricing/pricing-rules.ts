/**
 * The pricing page's arithmetic and filtering (
 * docs/decisions.md#pricing-formulas). Pure functions, so the page only renders.
 */
import type { ApiAnswer } from '../../api/wire';

/** `GET /api/pricing` → one entry of `data`: quota_type 0 pays per usage (ratios), 1 per call (model_price, USD). */
export type PricingModel = Extract<ApiAnswer<'/api/pricing', 'get'>, { success: true }>['data'][number];

/** The whole answer, outside the envelope: the model list plus the viewer's groups. */
export interface PricingData {
  models: PricingModel[];
  /** Group → the ratio this viewer pays there. */
  groupRatio: Record<string, number>;
  /** Groups this viewer may use → description. */
  usableGroup: Record<string, string>;
}

const finite = (value: unknown, fallback = 0): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** Takes what the server sent and keeps only well-formed entries (an odd row never breaks the page). */
export function normalizePricing(body: {
  data?: unknown;
  group_ratio?: unknown;
  usable_group?: unknown;
}): PricingData {
  const models: PricingModel[] = [];
  for (const raw of Array.isArray(body.data) ? (body.data as unknown[]) : []) {
    if (typeof raw !== 'object' || raw === null) {
      continue;
    }
    const entry = raw as Record<string, unknown>;
    if (typeof entry.model_name !== 'string' || !entry.model_name) {
      continue;
    }
    models.push({
      model_name: entry.model_name,
      quota_type: entry.quota_type === 1 ? 1 : 0,
      model_ratio: finite(entry.model_ratio),
      completion_ratio: finite(entry.completion_ratio, 1),
      model_price: finite(entry.model_price),
      enable_groups: Array.isArray(entry.enable_groups)
        ? entry.enable_groups.filter((group): group is string => typeof group === 'string')
        : [],
    });
  }
  const groupRatio: Record<string, number> = {};
  if (typeof body.group_ratio === 'object' && body.group_ratio !== null) {
    for (const [group, ratio] of Object.entries(body.group_ratio)) {
      if (typeof ratio === 'number' && Number.isFinite(ratio)) {
        groupRatio[group] = ratio;
      }
    }
  }
  const usableGroup: Record<string, string> = {};
  if (typeof body.usable_group === 'object' && body.usable_group !== null) {
    for (const [group, desc] of Object.entries(body.usable_group)) {
      usableGroup[group] = typeof desc === 'string' ? desc : '';
    }
  }
  return { models, groupRatio, usableGroup };
}

/** A group's ratio for this viewer; 1 when the server named none. */
export function ratioOf(groupRatio: Record<string, number>, group: string): number {
  return groupRatio[group] ?? 1;
}

/** USD per 1M prompt tokens: model ratio × 2 × group ratio. */
export function promptPricePer1M(model: PricingModel, groupRatio: number): number {
  return model.model_ratio * 2 * groupRatio;
}

/** USD per 1M completion tokens: model ratio × completion ratio × 2 × group ratio. */
export function completionPricePer1M(model: PricingModel, groupRatio: number): number {
  return model.model_ratio * model.completion_ratio * 2 * groupRatio;
}

/** USD per call: model price × group ratio. */
export function perCallPrice(model: PricingModel, groupRatio: number): number {
  return model.model_price * groupRatio;
}

/**
 * What a pay-per-usage call costs in USD: group ratio × model ratio × (prompt tokens + completion
 * tokens × completion ratio) / 500000.
 */
export function usageCost(
  model: PricingModel,
  groupRatio: number,
  promptTokens: number,
  completionTokens: number,
): number {
  return (
    (groupRatio * model.model_ratio * (promptTokens + completionTokens * model.completion_ratio)) / 500_000
  );
}

export type Currency = 'USD' | 'CNY';

export interface TopUpPricing {
  /** Price of one unit of top-up (status.price). */
  price: number;
  /** status.usd_exchange_rate */
  usdExchangeRate: number;
}

/**
 * A USD amount as text. At top-up price: amount × price / exchange rate in USD, or × rate again in
 * CNY, two decimals. Otherwise the USD amount itself, without trailing zeros (up to 6 decimals, so
 * cheap models do not show as $0).
 */
export function formatPrice(usd: number, topUp: (TopUpPricing & { currency: Currency }) | null): string {
  if (topUp) {
    const rate = topUp.usdExchangeRate > 0 ? topUp.usdExchangeRate : 1;
    const inUsd = (usd * topUp.price) / rate;
    return topUp.currency === 'CNY' ? `¥${(inUsd * rate).toFixed(2)}` : `$${inUsd.toFixed(2)}`;
  }
  return `$${Number(usd.toFixed(6)).toString()}`;
}

/** The completion ratio as the ratio column shows it: three decimals. */
export function formatRatio(ratio: number): string {
  return ratio.toFixed(3);
}

/**
 * Fuzzy match of a model name: case-insensitive, the typed characters in order (`g4o` finds
 * `gpt-4o`), spaces ignored. Returns a score (higher is better) or null when it does not match: an exact
 * name beats a prefix, a prefix beats a substring, a substring beats scattered characters, and
 * scattered characters closer together beat ones further apart.
 */
export function fuzzyScore(name: string, query: string): number | null {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  if (!needle) {
    return 0;
  }
  const hay = name.toLowerCase();
  if (hay === needle) {
    return 4000;
  }
  if (hay.startsWith(needle)) {
    return 3000 - hay.length;
  }
  const at = hay.indexOf(needle);
  if (at >= 0) {
    return 2000 - at;
  }
  let from = 0;
  let first = -1;
  let last = -1;
  for (const char of needle) {
    const found = hay.indexOf(char, from);
    if (found < 0) {
      return null;
    }
    if (first < 0) {
      first = found;
    }
    last = found;
    from = found + 1;
  }
  return 1000 - (last - first - needle.length + 1) - first;
}

/** Whether `group` may use the model. */
export function isAvailable(model: PricingModel, group: string): boolean {
  return model.enable_groups.includes(group);
}

/** Spec order: models starting with `gpt` first, then by name. */
export function compareModelNames(a: string, b: string): number {
  const gptA = a.toLowerCase().startsWith('gpt');
  const gptB = b.toLowerCase().startsWith('gpt');
  if (gptA !== gptB) {
    return gptA ? -1 : 1;
  }
  return a.localeCompare(b);
}

/**
 * The rows to show: those matching the search; models the viewed group may use first, then in the
 * spec's name order (a search keeps that order too, so rows do not jump around while typing).
 */
export function visibleModels(models: PricingModel[], search: string, group: string): PricingModel[] {
  return models
    .filter((model) => fuzzyScore(model.model_name, search) !== null)
    .sort((a, b) => {
      const availableA = isAvailable(a, group);
      if (availableA !== isAvailable(b, group)) {
        return availableA ? -1 : 1;
      }
      return compareModelNames(a.model_name, b.model_name);
    });
}

/** Groups of a model the viewer may switch to (usable ones only), in the server's order. */
export function switchableGroups(model: PricingModel, usableGroup: Record<string, string>): string[] {
  return model.enable_groups.filter((group) => group in usableGroup);
}

/** The group shown first: the signed-in user's own when usable, else `default`, else the first usable. */
export function initialGroup(userGroup: string | undefined, usableGroup: Record<string, string>): string {
  if (userGroup && userGroup in usableGroup) {
    return userGroup;
  }
  if ('default' in usableGroup) {
    return 'default';
  }
  return Object.keys(usableGroup)[0] ?? 'default';
}
