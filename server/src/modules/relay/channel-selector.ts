import type { Ability } from '../../database/entities';

/** What the relay needs of a channel, decrypted and parsed once per reload. */
export interface ChannelSnapshot {
  id: number;
  name: string;
  type: number;
  status: number;
  enabled: boolean;
  keys: string[];
  baseUrl: string;
  other: string;
  organization: string;
  modelMapping: Record<string, string>;
  statusCodeMapping: Record<string, string | number>;
  paramOverride: Record<string, unknown>;
  headerOverride: Record<string, string>;
  setting: Record<string, unknown>;
  autoBan: boolean;
  maxInputTokens: number;
  /** Requests per minute, tokens per minute, requests in flight (0 = unlimited; see ScopedLimitService). */
  rpmLimit: number;
  tpmLimit: number;
  concurrencyLimit: number;
  priority: number;
  weight: number;
  models: string[];
  group: string;
}

interface Tier {
  priority: number;
  members: Array<{ channel: ChannelSnapshot; weight: number }>;
}

export interface ChannelIndex {
  byId: Map<number, ChannelSnapshot>;
  /** group → model → tiers, highest priority first. */
  tiers: Map<string, Map<string, Tier[]>>;
}

export function buildChannelIndex(channels: ChannelSnapshot[], abilities: Ability[]): ChannelIndex {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const tiers = new Map<string, Map<string, Tier[]>>();
  for (const a of abilities) {
    const ch = byId.get(a.channel_id);
    if (!ch?.enabled || !a.enabled) continue;
    let models = tiers.get(a.group);
    if (!models) tiers.set(a.group, (models = new Map<string, Tier[]>()));
    let list = models.get(a.model);
    if (!list) models.set(a.model, (list = []));
    const priority = Number(a.priority);
    let tier = list.find((t) => t.priority === priority);
    if (!tier) list.push((tier = { priority, members: [] }));
    tier.members.push({ channel: ch, weight: Math.max(0, a.weight) });
  }
  for (const models of tiers.values())
    for (const list of models.values()) list.sort((x, y) => y.priority - x.priority);
  return { byId, tiers };
}

/** Does any enabled channel serve `model` in `group`? */
export function hasChannel(index: ChannelIndex, group: string, model: string): boolean {
  return !!index.tiers.get(group)?.get(model)?.length;
}

/**
 * Picks the channel for attempt `attempt` (0 = first try) of a request.
 *
 * The first try uses the highest priority tier; each retry moves one tier lower. Inside a tier the
 * choice is weighted-random (all weights 0 = equal chances). Channels in `exclude` (already failed for
 * this request) or refused by `accept` are skipped while another candidate remains anywhere.
 */
export function selectChannel(
  index: ChannelIndex,
  group: string,
  model: string,
  attempt: number,
  exclude: ReadonlySet<number>,
  accept: (c: ChannelSnapshot) => boolean = () => true,
  random: () => number = Math.random,
): ChannelSnapshot | null {
  const list = index.tiers.get(group)?.get(model);
  if (!list?.length) return null;
  const start = Math.min(attempt, list.length - 1);
  const order = [...list.slice(start), ...list.slice(0, start).reverse()];
  for (const tier of order) {
    const candidates = tier.members.filter((m) => !exclude.has(m.channel.id) && accept(m.channel));
    if (candidates.length) return weighted(candidates, random);
  }
  // Every candidate already failed: try again among those `accept` allows.
  const acceptable = list.flatMap((t) => t.members).filter((m) => accept(m.channel));
  return acceptable.length ? weighted(acceptable, random) : null;
}

function weighted(
  members: Array<{ channel: ChannelSnapshot; weight: number }>,
  random: () => number,
): ChannelSnapshot {
  const total = members.reduce((s, m) => s + m.weight, 0);
  if (total <= 0) return members[Math.floor(random() * members.length)].channel;
  let r = random() * total;
  for (const m of members) {
    r -= m.weight;
    if (r < 0) return m.channel;
  }
  return members[members.length - 1].channel;
}

/**
 * Follows model_mapping from the requested model (chains allowed: a → b → c). Returns the upstream
 * model, or null when the mapping loops.
 */
export function mapModel(mapping: Record<string, string>, model: string): string | null {
  let current = model;
  const seen = new Set<string>([current]);
  for (;;) {
    const next = mapping[current];
    if (typeof next !== 'string' || next === '' || next === current) return current;
    if (seen.has(next)) return null;
    seen.add(next);
    current = next;
  }
}
