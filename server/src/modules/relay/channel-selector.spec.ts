import type { Ability } from '../../database/entities';
import { buildChannelIndex, ChannelSnapshot, hasChannel, mapModel, selectChannel } from './channel-selector';

/** A channel snapshot with defaults; only what selection reads matters. */
function channel(id: number, over: Partial<ChannelSnapshot> = {}): ChannelSnapshot {
  return {
    id,
    name: `ch${id}`,
    type: 1,
    status: 1,
    enabled: true,
    keys: ['k'],
    baseUrl: 'http://127.0.0.1:1',
    other: '',
    organization: '',
    modelMapping: {},
    statusCodeMapping: {},
    paramOverride: {},
    headerOverride: {},
    setting: {},
    autoBan: true,
    maxInputTokens: 0,
    rpmLimit: 0,
    tpmLimit: 0,
    concurrencyLimit: 0,
    priority: 0,
    weight: 0,
    models: ['m'],
    group: 'default',
    ...over,
  };
}

function ability(channelId: number, over: Partial<Ability> = {}): Ability {
  return {
    group: 'default',
    model: 'm',
    channel_id: channelId,
    enabled: true,
    priority: 0,
    weight: 0,
    tag: null,
    ...over,
  };
}

/** Index of channels given as [id, priority, weight] (group default, model m). */
function index(
  specs: Array<[id: number, priority: number, weight: number]>,
  extra: Partial<ChannelSnapshot> = {},
) {
  return buildChannelIndex(
    specs.map(([id, priority, weight]) => channel(id, { priority, weight, ...extra })),
    specs.map(([id, priority, weight]) => ability(id, { priority, weight })),
  );
}

/** A deterministic sequence of "random" numbers in [0, 1). */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

const none = new Set<number>();

describe('buildChannelIndex', () => {
  it('orders tiers by priority, highest first, and leaves out disabled channels and abilities', () => {
    const idx = buildChannelIndex(
      [channel(1), channel(2), channel(3), channel(4, { enabled: false, status: 2 })],
      [
        ability(1, { priority: 0 }),
        ability(2, { priority: 10 }),
        ability(3, { priority: 5, enabled: false }),
        ability(4, { priority: 20 }),
      ],
    );
    const tiers = idx.tiers.get('default')!.get('m')!;
    expect(tiers.map((t) => t.priority)).toEqual([10, 0]);
    expect(tiers.flatMap((t) => t.members.map((m) => m.channel.id))).toEqual([2, 1]);
    expect(hasChannel(idx, 'default', 'm')).toBe(true);
    expect(hasChannel(idx, 'default', 'other')).toBe(false);
    expect(hasChannel(idx, 'vip', 'm')).toBe(false);
  });

  it('keeps groups and models apart', () => {
    const idx = buildChannelIndex(
      [channel(1), channel(2)],
      [ability(1, { group: 'vip' }), ability(2, { model: 'n' })],
    );
    expect(selectChannel(idx, 'vip', 'm', 0, none)?.id).toBe(1);
    expect(selectChannel(idx, 'default', 'm', 0, none)).toBeNull();
    expect(selectChannel(idx, 'default', 'n', 0, none)?.id).toBe(2);
  });

  it('clamps a negative weight to 0', () => {
    const idx = buildChannelIndex([channel(1)], [ability(1, { weight: -5 })]);
    expect(idx.tiers.get('default')!.get('m')![0].members[0].weight).toBe(0);
  });
});

describe('selectChannel', () => {
  it('answers null when no channel serves the group and model', () => {
    expect(selectChannel(index([]), 'default', 'm', 0, none)).toBeNull();
    expect(selectChannel(index([[1, 0, 0]]), 'default', 'other', 0, none)).toBeNull();
  });

  it('always picks from the highest priority tier on the first try', () => {
    const idx = index([
      [1, 0, 100],
      [2, 10, 0],
      [3, 5, 100],
    ]);
    for (const r of [0, 0.3, 0.5, 0.99])
      expect(selectChannel(idx, 'default', 'm', 0, none, undefined, () => r)?.id).toBe(2);
  });

  it('moves one tier lower on each retry, and stays on the lowest tier after that', () => {
    const idx = index([
      [1, 10, 0],
      [2, 5, 0],
      [3, 0, 0],
    ]);
    expect(selectChannel(idx, 'default', 'm', 0, none)?.id).toBe(1);
    expect(selectChannel(idx, 'default', 'm', 1, new Set([1]))?.id).toBe(2);
    expect(selectChannel(idx, 'default', 'm', 2, new Set([1, 2]))?.id).toBe(3);
    expect(selectChannel(idx, 'default', 'm', 7, new Set([1, 2]))?.id).toBe(3);
  });

  it('never re-picks a channel that already failed while another candidate remains', () => {
    const idx = index([
      [1, 10, 0],
      [2, 10, 0],
      [3, 0, 0],
    ]);
    // Retry 1 starts on the lower tier; the excluded channel of the top tier is skipped everywhere.
    expect(selectChannel(idx, 'default', 'm', 1, new Set([3]), undefined, () => 0)?.id).toBe(1);
    expect(selectChannel(idx, 'default', 'm', 1, new Set([3, 1]), undefined, () => 0)?.id).toBe(2);
    for (const r of [0, 0.49, 0.5, 0.99])
      expect(selectChannel(idx, 'default', 'm', 0, new Set([1]), undefined, () => r)?.id).toBe(2);
  });

  it('falls back to a higher tier when the lower tiers are used up', () => {
    const idx = index([
      [1, 10, 0],
      [2, 5, 0],
      [3, 0, 0],
    ]);
    expect(selectChannel(idx, 'default', 'm', 2, new Set([3]))?.id).toBe(2);
    expect(selectChannel(idx, 'default', 'm', 2, new Set([3, 2]))?.id).toBe(1);
  });

  it('when every candidate already failed, tries again among all of them rather than giving up', () => {
    const idx = index([
      [1, 10, 0],
      [2, 0, 0],
    ]);
    const picked = selectChannel(idx, 'default', 'm', 1, new Set([1, 2]), undefined, () => 0);
    expect([1, 2]).toContain(picked?.id);
  });

  it('weighs the choice inside a tier with the injected random', () => {
    const idx = index([
      [1, 0, 1],
      [2, 0, 3],
    ]);
    // Total weight 4: [0, 0.25) → channel 1, [0.25, 1) → channel 2.
    expect(selectChannel(idx, 'default', 'm', 0, none, undefined, () => 0)?.id).toBe(1);
    expect(selectChannel(idx, 'default', 'm', 0, none, undefined, () => 0.24)?.id).toBe(1);
    expect(selectChannel(idx, 'default', 'm', 0, none, undefined, () => 0.25)?.id).toBe(2);
    expect(selectChannel(idx, 'default', 'm', 0, none, undefined, () => 0.999)?.id).toBe(2);
  });

  it('gives a weight-10 channel the large majority against a weight-0 one', () => {
    const idx = index([
      [1, 0, 0],
      [2, 0, 10],
    ]);
    const random = sequence(...Array.from({ length: 100 }, (_, i) => i / 100));
    let heavy = 0;
    for (let i = 0; i < 100; i++)
      if (selectChannel(idx, 'default', 'm', 0, none, undefined, random)?.id === 2) heavy++;
    expect(heavy).toBeGreaterThanOrEqual(90);
  });

  it('gives equal chances when every weight is 0', () => {
    const idx = index([
      [1, 0, 0],
      [2, 0, 0],
      [3, 0, 0],
      [4, 0, 0],
    ]);
    const picks = [0, 0.25, 0.5, 0.75].map(
      (r) => selectChannel(idx, 'default', 'm', 0, none, undefined, () => r)?.id,
    );
    expect(picks).toEqual([1, 2, 3, 4]);
  });

  it('skips channels the `accept` filter refuses, even in a higher tier', () => {
    const idx = index([
      [1, 10, 0],
      [2, 0, 0],
    ]);
    expect(selectChannel(idx, 'default', 'm', 0, none, (c) => c.id !== 1)?.id).toBe(2);
  });

  it('never falls back to a channel the `accept` filter refuses', () => {
    const idx = index([
      [1, 10, 0],
      [2, 0, 0],
    ]);
    expect(selectChannel(idx, 'default', 'm', 0, none, () => false)).toBeNull();
    // Everything acceptable already failed: only acceptable channels come back.
    for (const r of [0, 0.5, 0.99])
      expect(
        selectChannel(
          idx,
          'default',
          'm',
          1,
          new Set([2]),
          (c) => c.id === 2,
          () => r,
        )?.id,
      ).toBe(2);
  });
});

describe('mapModel', () => {
  it('answers the model itself without a mapping, or with an empty or self mapping', () => {
    expect(mapModel({}, 'gpt-4o')).toBe('gpt-4o');
    expect(mapModel({ other: 'x' }, 'gpt-4o')).toBe('gpt-4o');
    expect(mapModel({ 'gpt-4o': '' }, 'gpt-4o')).toBe('gpt-4o');
    expect(mapModel({ 'gpt-4o': 'gpt-4o' }, 'gpt-4o')).toBe('gpt-4o');
  });

  it('follows one step and chains', () => {
    expect(mapModel({ 'gpt-4o': 'gpt-4o-mini' }, 'gpt-4o')).toBe('gpt-4o-mini');
    expect(mapModel({ a: 'b', b: 'c', c: 'd' }, 'a')).toBe('d');
    expect(mapModel({ a: 'b', b: 'c', c: 'd' }, 'b')).toBe('d');
  });

  it('answers null on a cycle instead of looping', () => {
    expect(mapModel({ a: 'b', b: 'a' }, 'a')).toBeNull();
    expect(mapModel({ a: 'b', b: 'c', c: 'a' }, 'a')).toBeNull();
    expect(mapModel({ a: 'b', b: 'c', c: 'b' }, 'a')).toBeNull();
  });

  it('ignores values that are not strings', () => {
    expect(mapModel({ a: 5 as unknown as string }, 'a')).toBe('a');
  });
});
