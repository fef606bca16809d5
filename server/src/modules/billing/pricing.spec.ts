import { emptyUsage } from './usage-counts';
import {
  clampQuota,
  lookup,
  MAX_QUOTA,
  PriceMemo,
  priceOf,
  PriceTables,
  reserveQuota,
  usageQuota,
} from './pricing';

const tables = (over: Partial<PriceTables> = {}): PriceTables => ({
  quotaPerUnit: 500000,
  modelPrice: { 'dall-e-3': 0.04 },
  modelRatio: { 'gpt-4o': 1.25, 'claude-sonnet-4': 1.5 },
  completionRatio: { 'gpt-4o': 4, 'claude-sonnet-4': 5 },
  cacheRatio: { 'gpt-4o': 0.5, 'claude-sonnet-4': 0.1 },
  cacheCreationRatio: {},
  imageRatio: {},
  audioRatio: {},
  audioCompletionRatio: {},
  groupRatio: { default: 1, vip: 0.5 },
  groupGroupRatio: { vip: { default: 0.8 } },
  ...over,
});

describe('pricing', () => {
  it('matches the reference worked example: gpt-4o, 1000 + 500 tokens → 3750', () => {
    const p = priceOf(tables(), 'gpt-4o', 'default', 'default')!;
    expect(usageQuota(p, { ...emptyUsage(), prompt_tokens: 1000, completion_tokens: 500 })).toBe(3750);
  });

  it('prices dated model names by their longest known prefix', () => {
    expect(lookup({ gpt: 1, 'gpt-4o': 2 }, 'gpt-4o-2024-08-06')).toBe(2);
    expect(lookup({ 'gpt-4o': 2 }, 'gpt-3.5')).toBeUndefined();
  });

  it("never prices a model by the map's inherited members", () => {
    const map = JSON.parse('{"gpt-4o": 2}') as Record<string, number>;
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(lookup(map, name)).toBeUndefined();
    expect(priceOf(tables(), 'constructor', 'default', 'default')).toBeNull();
  });

  it('returns null for an unpriced model', () => {
    expect(priceOf(tables(), 'mystery-model', 'default', 'default')).toBeNull();
  });

  it('applies the group ratio, and a user-group override over it', () => {
    const vipInVip = priceOf(tables(), 'gpt-4o', 'default', 'vip')!;
    expect(vipInVip.groupRatio).toBe(0.5);
    expect(vipInVip.userGroupRatio).toBe(-1);
    const override = priceOf(tables(), 'gpt-4o', 'vip', 'default')!;
    expect(override.groupRatio).toBe(0.8);
    expect(override.userGroupRatio).toBe(0.8);
  });

  it('weights cached and cache-creation tokens', () => {
    const p = priceOf(tables(), 'claude-sonnet-4', 'default', 'default')!;
    // 1000 prompt of which 600 cache read and 200 cache write; 100 completion.
    const q = usageQuota(p, {
      ...emptyUsage(),
      prompt_tokens: 1000,
      cached_tokens: 600,
      cache_creation_tokens: 200,
      completion_tokens: 100,
    });
    expect(q).toBe(Math.round((200 + 600 * 0.1 + 200 * 1.25 + 100 * 5) * 1.5));
  });

  it('charges fixed-price models per call and per image', () => {
    const p = priceOf(tables(), 'dall-e-3', 'default', 'default')!;
    expect(usageQuota(p, emptyUsage())).toBe(20000);
    expect(reserveQuota(p, 0, 0, 500)).toBe(20000);
  });

  it('charges at least 1 for a used request and saturates instead of overflowing', () => {
    const cheap = priceOf(tables({ modelRatio: { tiny: 0.0001 } }), 'tiny', 'default', 'default')!;
    expect(usageQuota(cheap, { ...emptyUsage(), prompt_tokens: 1 })).toBe(1);
    expect(usageQuota(cheap, emptyUsage())).toBe(0);
    expect(clampQuota(Infinity)).toBe(MAX_QUOTA);
    expect(clampQuota(NaN)).toBe(0);
    expect(clampQuota(-5)).toBe(0);
    const p = priceOf(tables(), 'gpt-4o', 'default', 'default')!;
    expect(reserveQuota(p, 1e300, 1e300, 500)).toBe(MAX_QUOTA);
  });
});

/** Options as the memo reads them: the tables above, a revision an update bumps. */
class Options {
  revision = 0;
  reads = 0;
  constructor(public t: PriceTables) {}
  num(): number {
    return this.t.quotaPerUnit;
  }
  json(key: string): never {
    this.reads++;
    const name = (key[0].toLowerCase() + key.slice(1)) as keyof PriceTables;
    return (this.t[name] ?? {}) as never;
  }
  update(over: Partial<PriceTables>): void {
    this.t = { ...this.t, ...over };
    this.revision++;
  }
}

describe('PriceMemo', () => {
  const cases: [string, string, string][] = [
    ['gpt-4o', 'default', 'default'],
    ['gpt-4o-2024-08-06', 'default', 'default'],
    ['claude-sonnet-4', 'vip', 'default'],
    ['claude-sonnet-4', 'default', 'vip'],
    ['dall-e-3', 'vip', 'vip'],
  ];

  it('gives what priceOf gives, for every model and pair of groups', () => {
    const memo = new PriceMemo(new Options(tables()));
    for (let round = 0; round < 2; round++)
      for (const [model, userGroup, group] of cases)
        expect(memo.price(model, userGroup, group)).toEqual(priceOf(tables(), model, userGroup, group));
    expect(memo.price('mystery-model', 'default', 'default')).toBeNull();
  });

  it('reads the tables once per revision and shares one frozen price between calls', () => {
    const o = new Options(tables());
    const memo = new PriceMemo(o);
    const first = memo.price('gpt-4o', 'default', 'default')!;
    const reads = o.reads;
    expect(memo.price('gpt-4o', 'default', 'default')).toBe(first);
    expect(o.reads).toBe(reads);
    expect(Object.isFrozen(first)).toBe(true);
    // The pair of groups is part of the key: vip calling through default pays GroupGroupRatio's 0.8.
    expect(memo.price('gpt-4o', 'vip', 'default')!.groupRatio).toBe(0.8);
    expect(memo.price('gpt-4o', 'default', 'vip')!.groupRatio).toBe(0.5);
  });

  it('prices again after the options change, and picks up a model priced since', () => {
    const o = new Options(tables());
    const memo = new PriceMemo(o);
    expect(memo.price('gpt-4o', 'default', 'default')!.modelRatio).toBe(1.25);
    expect(memo.price('new-model', 'default', 'default')).toBeNull();
    o.update({ modelRatio: { 'gpt-4o': 2.5, 'new-model': 3 } });
    expect(memo.price('gpt-4o', 'default', 'default')!.modelRatio).toBe(2.5);
    expect(memo.price('new-model', 'default', 'default')!.modelRatio).toBe(3);
    expect(memo.tables().modelRatio).toEqual({ 'gpt-4o': 2.5, 'new-model': 3 });
  });

  it('keeps a bounded number of prices however many model names callers send', () => {
    const memo = new PriceMemo(new Options(tables()));
    const first = memo.price('gpt-4o-0', 'default', 'default');
    for (let i = 1; i <= 5000; i++) memo.price(`gpt-4o-${i}`, 'default', 'default');
    const kept = (memo as unknown as { size: number }).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(4096);
    // Started again past the bound: the first name is priced afresh (equal, not the same object).
    const again = memo.price('gpt-4o-0', 'default', 'default');
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});
