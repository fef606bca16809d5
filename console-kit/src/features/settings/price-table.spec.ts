import { describe, expect, it } from 'vitest';
import {
  applyBatch,
  buildPriceRows,
  draftToRow,
  emptyDraft,
  inputPriceToRatio,
  modelsWithoutPrice,
  outputPriceToCompletionRatio,
  priceRowsToOptions,
  ratiosToTokenPrices,
  rowToDraft,
  type PriceRow,
} from './price-table';

describe('per-token ↔ per-million-token price conversions', () => {
  it('input price is twice the ratio and output price is input × completion ratio', () => {
    expect(ratiosToTokenPrices(1.25, 4)).toEqual({ input: 2.5, output: 10 });
    expect(ratiosToTokenPrices(0.075)).toEqual({ input: 0.15, output: 0.15 });
  });

  it('ratio = price / 2 and completion ratio = output / input, without float noise', () => {
    expect(inputPriceToRatio(2.5)).toBe(1.25);
    expect(inputPriceToRatio(0.3)).toBe(0.15);
    expect(outputPriceToCompletionRatio(2.5, 10)).toBe(4);
    expect(outputPriceToCompletionRatio(0.1, 0.3)).toBe(3);
    expect(outputPriceToCompletionRatio(0, 5)).toBeUndefined();
  });

  it('round-trips a ratio pair through prices', () => {
    for (const [ratio, completion] of [
      [0.0375, 4],
      [15, 5],
      [1, 1],
      [0.1, 3],
    ] as const) {
      const { input, output } = ratiosToTokenPrices(ratio, completion);
      expect(inputPriceToRatio(input)).toBe(ratio);
      expect(outputPriceToCompletionRatio(input, output)).toBe(completion);
    }
  });
});

describe('rows and options', () => {
  const modelPrice = '{"mj_imagine":0.1}';
  const modelRatio = '{"gpt-4o":1.25,"claude":1.5}';
  const completionRatio = '{"gpt-4o":4,"orphan":2}';

  it('builds one sorted row per model named anywhere', () => {
    expect(buildPriceRows(modelPrice, modelRatio, completionRatio)).toEqual([
      { name: 'claude', ratio: 1.5 },
      { name: 'gpt-4o', ratio: 1.25, completionRatio: 4 },
      { name: 'mj_imagine', price: 0.1 },
      { name: 'orphan', completionRatio: 2 },
    ]);
  });

  it('writes a fixed price instead of the ratios of that model', () => {
    const rows: PriceRow[] = [
      { name: 'a', ratio: 1, completionRatio: 2 },
      { name: 'b', price: 0.02, ratio: 9, completionRatio: 9 },
    ];
    const options = priceRowsToOptions(rows);
    expect(JSON.parse(options.ModelPrice)).toEqual({ b: 0.02 });
    expect(JSON.parse(options.ModelRatio)).toEqual({ a: 1 });
    expect(JSON.parse(options.CompletionRatio)).toEqual({ a: 2 });
  });

  it('round-trips the stored options', () => {
    const rows = buildPriceRows(modelPrice, modelRatio, completionRatio);
    const back = priceRowsToOptions(rows);
    expect(JSON.parse(back.ModelPrice)).toEqual(JSON.parse(modelPrice));
    expect(JSON.parse(back.ModelRatio)).toEqual(JSON.parse(modelRatio));
    expect(JSON.parse(back.CompletionRatio)).toEqual(JSON.parse(completionRatio));
  });

  it('survives broken stored JSON', () => {
    expect(buildPriceRows('{', 'null', '[]')).toEqual([]);
  });

  it('lists enabled models with neither a price nor a ratio', () => {
    expect(modelsWithoutPrice(['z', 'gpt-4o', 'mj_imagine', 'new', 'new'], modelPrice, modelRatio)).toEqual([
      'new',
      'z',
    ]);
  });
});

describe('draftToRow (add/edit dialog)', () => {
  const none = new Set<string>();

  it('requires a name that no other row has', () => {
    expect(draftToRow({ ...emptyDraft(' '), ratio: '1' }, none)).toEqual({
      problem: { field: 'name', message: 'nameRequired' },
    });
    expect(draftToRow({ ...emptyDraft('gpt-4o'), ratio: '1' }, new Set(['gpt-4o']))).toEqual({
      problem: { field: 'name', message: 'nameExists' },
    });
  });

  it('per request: a number that is not 0', () => {
    const draft = { ...emptyDraft('mj'), mode: 'per-request' as const };
    expect(draftToRow({ ...draft, price: 'abc' }, none)).toEqual({
      problem: { field: 'price', message: 'notNumber' },
    });
    expect(draftToRow({ ...draft, price: '-1' }, none)).toEqual({
      problem: { field: 'price', message: 'notNumber' },
    });
    expect(draftToRow({ ...draft, price: '0' }, none)).toEqual({
      problem: { field: 'price', message: 'priceZero' },
    });
    expect(draftToRow({ ...draft, price: '' }, none)).toEqual({
      problem: { field: 'price', message: 'required' },
    });
    // A fixed price ignores whatever ratios were typed.
    expect(draftToRow({ ...draft, price: '0.25', ratio: 'junk' }, none)).toEqual({
      row: { name: 'mj', price: 0.25 },
    });
  });

  it('per token by ratio: ratio required, completion ratio optional', () => {
    const draft = emptyDraft(' gpt-x ');
    expect(draftToRow({ ...draft, ratio: '1.5' }, none)).toEqual({ row: { name: 'gpt-x', ratio: 1.5 } });
    expect(draftToRow({ ...draft, ratio: '1.5', completionRatio: '4' }, none)).toEqual({
      row: { name: 'gpt-x', ratio: 1.5, completionRatio: 4 },
    });
    expect(draftToRow({ ...draft, ratio: '1e400' }, none)).toEqual({
      problem: { field: 'ratio', message: 'notNumber' },
    });
    expect(draftToRow({ ...draft, ratio: '1', completionRatio: 'x' }, none)).toEqual({
      problem: { field: 'completionRatio', message: 'notNumber' },
    });
  });

  it('per token by price: converts dollars per million tokens to ratios', () => {
    const draft = { ...emptyDraft('gpt-x'), tokenEntry: 'price' as const };
    expect(draftToRow({ ...draft, inputPrice: '2.5', outputPrice: '10' }, none)).toEqual({
      row: { name: 'gpt-x', ratio: 1.25, completionRatio: 4 },
    });
    expect(draftToRow({ ...draft, inputPrice: '3' }, none)).toEqual({ row: { name: 'gpt-x', ratio: 1.5 } });
    expect(draftToRow({ ...draft, inputPrice: '$3' }, none)).toEqual({
      problem: { field: 'inputPrice', message: 'notNumber' },
    });
  });

  it('opens an existing row with its values and derived prices', () => {
    expect(rowToDraft({ name: 'a', ratio: 1.25, completionRatio: 4 })).toMatchObject({
      mode: 'per-token',
      ratio: '1.25',
      completionRatio: '4',
      inputPrice: '2.5',
      outputPrice: '10',
    });
    expect(rowToDraft({ name: 'b', price: 0.1 })).toMatchObject({ mode: 'per-request', price: '0.1' });
  });
});

describe('applyBatch', () => {
  const rows: PriceRow[] = [
    { name: 'a', ratio: 1, completionRatio: 2 },
    { name: 'b', price: 0.5 },
    { name: 'c', ratio: 3 },
  ];

  it('needs a selection, a value and numbers', () => {
    expect(applyBatch(rows, new Set(), 'ratio', '1')).toEqual({ problem: 'selectFirst' });
    expect(applyBatch(rows, new Set(['a']), 'ratio', ' ')).toEqual({ problem: 'valueRequired' });
    expect(applyBatch(rows, new Set(['a']), 'bothRatio', '1', '')).toEqual({ problem: 'bothRequired' });
    expect(applyBatch(rows, new Set(['a']), 'ratio', 'x')).toEqual({ problem: 'notNumber' });
    expect(applyBatch(rows, new Set(['a']), 'bothRatio', '1', 'y')).toEqual({ problem: 'notNumber' });
    expect(applyBatch(rows, new Set(['a']), 'price', '0')).toEqual({ problem: 'priceZero' });
  });

  it('sets a fixed price on the selected rows only', () => {
    expect(applyBatch(rows, new Set(['a', 'c']), 'price', '0.02')).toEqual({
      rows: [
        { name: 'a', price: 0.02 },
        { name: 'b', price: 0.5 },
        { name: 'c', price: 0.02 },
      ],
    });
  });

  it('sets ratios, which turns a per-request model into a per-token one', () => {
    expect(applyBatch(rows, new Set(['b', 'c']), 'ratio', '2')).toEqual({
      rows: [rows[0], { name: 'b', ratio: 2 }, { name: 'c', ratio: 2 }],
    });
    expect(applyBatch(rows, new Set(['a']), 'completionRatio', '5')).toEqual({
      rows: [{ name: 'a', ratio: 1, completionRatio: 5 }, rows[1], rows[2]],
    });
    expect(applyBatch(rows, new Set(['a', 'b']), 'bothRatio', '0.5', '3')).toEqual({
      rows: [
        { name: 'a', ratio: 0.5, completionRatio: 3 },
        { name: 'b', ratio: 0.5, completionRatio: 3 },
        rows[2],
      ],
    });
  });
});
