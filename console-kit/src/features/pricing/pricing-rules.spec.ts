import { describe, expect, it } from 'vitest';
import {
  completionPricePer1M,
  formatPrice,
  formatRatio,
  fuzzyScore,
  initialGroup,
  normalizePricing,
  perCallPrice,
  promptPricePer1M,
  switchableGroups,
  usageCost,
  visibleModels,
  type PricingModel,
} from './pricing-rules';

const model = (name: string, extra: Partial<PricingModel> = {}): PricingModel => ({
  model_name: name,
  quota_type: 0,
  model_ratio: 1.25,
  completion_ratio: 4,
  model_price: 0,
  enable_groups: ['default'],
  ...extra,
});

describe('price formulas', () => {
  const gpt4o = model('gpt-4o');
  it('prices tokens per 1M with the model, completion and group ratios', () => {
    expect(promptPricePer1M(gpt4o, 1)).toBe(2.5);
    expect(completionPricePer1M(gpt4o, 1)).toBe(10);
    expect(promptPricePer1M(gpt4o, 0.5)).toBe(1.25);
    expect(completionPricePer1M(gpt4o, 1.5)).toBe(15);
  });

  it('prices a call as model price × group ratio', () => {
    expect(perCallPrice(model('dall-e-3', { quota_type: 1, model_price: 0.04 }), 2)).toBe(0.08);
  });

  it('costs a pay-per-usage call as the spec says', () => {
    // 1 × 1.25 × (1000 + 500 × 4) / 500000 = 0.0075 USD
    expect(usageCost(gpt4o, 1, 1000, 500)).toBeCloseTo(0.0075, 10);
    expect(usageCost(gpt4o, 2, 1000, 500)).toBeCloseTo(0.015, 10);
  });

  it('shows USD amounts without losing cheap prices, or at top-up price in USD or CNY', () => {
    expect(formatPrice(2.5, null)).toBe('$2.5');
    expect(formatPrice(0.000075, null)).toBe('$0.000075');
    // price 7.3 per unit at an exchange rate of 7.3: the USD figure is unchanged, CNY is × rate
    expect(formatPrice(2.5, { price: 7.3, usdExchangeRate: 7.3, currency: 'USD' })).toBe('$2.50');
    expect(formatPrice(2.5, { price: 7.3, usdExchangeRate: 7.3, currency: 'CNY' })).toBe('¥18.25');
    // a discounted top-up: 5 per unit at 7.3
    expect(formatPrice(10, { price: 5, usdExchangeRate: 7.3, currency: 'USD' })).toBe('$6.85');
    expect(formatPrice(10, { price: 5, usdExchangeRate: 7.3, currency: 'CNY' })).toBe('¥50.00');
    // a broken exchange rate never divides by zero
    expect(formatPrice(1, { price: 2, usdExchangeRate: 0, currency: 'USD' })).toBe('$2.00');
  });

  it('shows ratios with three decimals', () => {
    expect(formatRatio(4)).toBe('4.000');
    expect(formatRatio(1 / 3)).toBe('0.333');
  });
});

describe('fuzzyScore', () => {
  it('matches the typed characters in order, ignoring case and spaces', () => {
    expect(fuzzyScore('gpt-4o-mini', 'g4o')).not.toBeNull();
    expect(fuzzyScore('gpt-4o-mini', 'GPT 4O')).not.toBeNull();
    expect(fuzzyScore('gpt-4o-mini', 'o4g')).toBeNull();
    expect(fuzzyScore('claude-3-opus', 'gpt')).toBeNull();
    expect(fuzzyScore('anything', '')).toBe(0);
  });

  it('ranks exact over prefix over substring over scattered, tighter scatter first', () => {
    const exact = fuzzyScore('gpt-4o', 'gpt-4o') ?? -1;
    const prefix = fuzzyScore('gpt-4o-mini', 'gpt-4o') ?? -1;
    const substring = fuzzyScore('azure-gpt-4o', 'gpt-4o') ?? -1;
    const tight = fuzzyScore('gpt-4o', 'g4o') ?? -1;
    const loose = fuzzyScore('gemini-1.5-4o-pro', 'g4o') ?? -1;
    expect(exact).toBeGreaterThan(prefix);
    expect(prefix).toBeGreaterThan(substring);
    expect(substring).toBeGreaterThan(tight);
    expect(tight).toBeGreaterThan(loose);
  });

  it('treats regular-expression characters literally', () => {
    expect(fuzzyScore('model(1).*', '(1).*')).not.toBeNull();
    expect(fuzzyScore('model', '.*')).toBeNull();
  });
});

describe('visibleModels', () => {
  const models = [
    model('claude-3-haiku', { enable_groups: ['vip'] }),
    model('gpt-4o-mini', { enable_groups: ['default', 'vip'] }),
    model('gemini-pro', { enable_groups: ['default'] }),
    model('gpt-4o', { enable_groups: ['vip'] }),
  ];

  it('puts what the viewed group may use first, then gpt models, then by name', () => {
    expect(visibleModels(models, '', 'default').map((m) => m.model_name)).toEqual([
      'gpt-4o-mini',
      'gemini-pro',
      'gpt-4o',
      'claude-3-haiku',
    ]);
    expect(visibleModels(models, '', 'vip').map((m) => m.model_name)).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'claude-3-haiku',
      'gemini-pro',
    ]);
  });

  it('keeps only matching names and does not change the input', () => {
    const before = models.map((m) => m.model_name);
    expect(visibleModels(models, 'g4o', 'default').map((m) => m.model_name)).toEqual([
      'gpt-4o-mini',
      'gpt-4o',
    ]);
    expect(models.map((m) => m.model_name)).toEqual(before);
  });
});

describe('groups', () => {
  it('offers only the groups the viewer may use', () => {
    expect(
      switchableGroups(model('m', { enable_groups: ['default', 'vip', 'svip'] }), { default: '', vip: '' }),
    ).toEqual(['default', 'vip']);
  });

  it("starts on the user's own group, else default, else the first usable", () => {
    expect(initialGroup('vip', { default: '', vip: '' })).toBe('vip');
    expect(initialGroup('gone', { default: '', vip: '' })).toBe('default');
    expect(initialGroup(undefined, { vip: '' })).toBe('vip');
    expect(initialGroup(undefined, {})).toBe('default');
  });
});

describe('normalizePricing', () => {
  it('keeps well-formed rows and ratios and drops the rest', () => {
    const data = normalizePricing({
      data: [
        {
          model_name: 'gpt-4o',
          quota_type: 0,
          model_ratio: 1.25,
          completion_ratio: 4,
          enable_groups: ['a', 3],
        },
        { model_name: '', quota_type: 0 },
        null,
        'x',
        { model_name: 'dall-e-3', quota_type: 1, model_price: 0.04, model_ratio: 'NaN' },
      ],
      group_ratio: { default: 1, vip: 'x', svip: 0.5 },
      usable_group: { default: '默认分组', vip: 7 },
    });
    expect(data.models).toEqual([
      {
        model_name: 'gpt-4o',
        quota_type: 0,
        model_ratio: 1.25,
        completion_ratio: 4,
        model_price: 0,
        enable_groups: ['a'],
      },
      {
        model_name: 'dall-e-3',
        quota_type: 1,
        model_ratio: 0,
        completion_ratio: 1,
        model_price: 0.04,
        enable_groups: [],
      },
    ]);
    expect(data.groupRatio).toEqual({ default: 1, svip: 0.5 });
    expect(data.usableGroup).toEqual({ default: '默认分组', vip: '' });
    expect(normalizePricing({})).toEqual({ models: [], groupRatio: {}, usableGroup: {} });
  });
});
