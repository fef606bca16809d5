import { parseNumberMap } from './json-text';

/**
 * The visual model price table. A model is billed either per request (a fixed price in dollars, from
 * ModelPrice) or per token (ModelRatio and CompletionRatio). Per-token prices are entered either as
 * ratios or as dollars per million tokens: input price = 2 × ratio, output price = input × completion
 * ratio (docs/decisions.md#quota-units), so ratio = price / 2 and completion ratio = output price / input price.
 */
export interface PriceRow {
  name: string;
  /** Fixed price per request, in dollars; set means per-request billing. */
  price?: number;
  ratio?: number;
  completionRatio?: number;
}

export type BillingMode = 'per-token' | 'per-request';

export const PRICE_TABLE_PAGE_SIZE = 10;

/** Rounds away binary noise (0.1 × 3 → 0.3) without losing meaningful digits. */
export function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

export function billingMode(row: PriceRow): BillingMode {
  return row.price !== undefined ? 'per-request' : 'per-token';
}

/** Dollars per million input tokens → model ratio. */
export function inputPriceToRatio(inputPrice: number): number {
  return tidy(inputPrice / 2);
}

/** Output price over input price → completion ratio; undefined when the input price is 0. */
export function outputPriceToCompletionRatio(inputPrice: number, outputPrice: number): number | undefined {
  return inputPrice > 0 ? tidy(outputPrice / inputPrice) : undefined;
}

/** Ratios → dollars per million tokens (completion ratio 1 when unset, as the relay bills it). */
export function ratiosToTokenPrices(ratio: number, completionRatio = 1): { input: number; output: number } {
  const input = tidy(ratio * 2);
  return { input, output: tidy(input * completionRatio) };
}

/** One row per model named in any of the three options, sorted by name. */
export function buildPriceRows(modelPrice: string, modelRatio: string, completionRatio: string): PriceRow[] {
  const prices = parseNumberMap(modelPrice);
  const ratios = parseNumberMap(modelRatio);
  const completions = parseNumberMap(completionRatio);
  const names = new Set([...Object.keys(prices), ...Object.keys(ratios), ...Object.keys(completions)]);
  return [...names]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const row: PriceRow = { name };
      if (name in prices) row.price = prices[name];
      if (name in ratios) row.ratio = ratios[name];
      if (name in completions) row.completionRatio = completions[name];
      return row;
    });
}

export interface PriceOptions {
  ModelPrice: string;
  ModelRatio: string;
  CompletionRatio: string;
}

/** The three option values for a table. A fixed price wins: its model's ratios are not written. */
export function priceRowsToOptions(rows: readonly PriceRow[]): PriceOptions {
  const prices: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const completions: Record<string, number> = {};
  for (const row of rows) {
    if (row.price !== undefined) {
      prices[row.name] = row.price;
      continue;
    }
    if (row.ratio !== undefined) ratios[row.name] = row.ratio;
    if (row.completionRatio !== undefined) completions[row.name] = row.completionRatio;
  }
  const text = (value: Record<string, number>) => JSON.stringify(value, null, 2);
  return { ModelPrice: text(prices), ModelRatio: text(ratios), CompletionRatio: text(completions) };
}

/** The add/edit dialog's form, all as typed. */
export interface ModelDraft {
  name: string;
  mode: BillingMode;
  /** Per-token entry: by ratio or by dollars per million tokens. */
  tokenEntry: 'ratio' | 'price';
  price: string;
  ratio: string;
  completionRatio: string;
  inputPrice: string;
  outputPrice: string;
}

export type DraftProblem =
  | { field: 'name'; message: 'nameRequired' | 'nameExists' }
  | { field: keyof ModelDraft; message: 'notNumber' | 'priceZero' | 'required' };

export function emptyDraft(name = ''): ModelDraft {
  return {
    name,
    mode: 'per-token',
    tokenEntry: 'ratio',
    price: '',
    ratio: '',
    completionRatio: '',
    inputPrice: '',
    outputPrice: '',
  };
}

export function rowToDraft(row: PriceRow): ModelDraft {
  const draft = emptyDraft(row.name);
  if (row.price !== undefined) {
    return { ...draft, mode: 'per-request', price: String(row.price) };
  }
  draft.ratio = row.ratio === undefined ? '' : String(row.ratio);
  draft.completionRatio = row.completionRatio === undefined ? '' : String(row.completionRatio);
  if (row.ratio !== undefined) {
    const prices = ratiosToTokenPrices(row.ratio, row.completionRatio ?? 1);
    draft.inputPrice = String(prices.input);
    draft.outputPrice = String(prices.output);
  }
  return draft;
}

/** A number field: '' stays unset; anything else must be a finite number ≥ 0. */
export function parseNumberField(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') {
    return undefined;
  }
  if (!/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
    return null;
  }
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/**
 * Validates the dialog and builds the row (spec: '请输入数字', '模型名称已存在', '模型价格不能为0').
 * `otherNames` are the names of every other row (the edited row's own name excluded).
 */
export function draftToRow(
  draft: ModelDraft,
  otherNames: ReadonlySet<string>,
): { row: PriceRow } | { problem: DraftProblem } {
  const name = draft.name.trim();
  if (name === '') return { problem: { field: 'name', message: 'nameRequired' } };
  if (otherNames.has(name)) return { problem: { field: 'name', message: 'nameExists' } };

  if (draft.mode === 'per-request') {
    const price = parseNumberField(draft.price);
    if (price === null) return { problem: { field: 'price', message: 'notNumber' } };
    if (price === undefined) return { problem: { field: 'price', message: 'required' } };
    if (price === 0) return { problem: { field: 'price', message: 'priceZero' } };
    return { row: { name, price } };
  }

  if (draft.tokenEntry === 'price') {
    const input = parseNumberField(draft.inputPrice);
    const output = parseNumberField(draft.outputPrice);
    if (input === null) return { problem: { field: 'inputPrice', message: 'notNumber' } };
    if (input === undefined) return { problem: { field: 'inputPrice', message: 'required' } };
    if (output === null) return { problem: { field: 'outputPrice', message: 'notNumber' } };
    const row: PriceRow = { name, ratio: inputPriceToRatio(input) };
    if (output !== undefined) {
      const completion = outputPriceToCompletionRatio(input, output);
      if (completion !== undefined) row.completionRatio = completion;
    }
    return { row };
  }

  const ratio = parseNumberField(draft.ratio);
  const completion = parseNumberField(draft.completionRatio);
  if (ratio === null) return { problem: { field: 'ratio', message: 'notNumber' } };
  if (ratio === undefined) return { problem: { field: 'ratio', message: 'required' } };
  if (completion === null) return { problem: { field: 'completionRatio', message: 'notNumber' } };
  const row: PriceRow = { name, ratio };
  if (completion !== undefined) row.completionRatio = completion;
  return { row };
}

/** Batch set: a fixed price, the model ratio, the completion ratio, or both ratios at once. */
export type BatchMode = 'price' | 'ratio' | 'completionRatio' | 'bothRatio';

export type BatchProblem = 'selectFirst' | 'valueRequired' | 'bothRequired' | 'notNumber' | 'priceZero';

export function applyBatch(
  rows: readonly PriceRow[],
  selected: ReadonlySet<string>,
  mode: BatchMode,
  first: string,
  second = '',
): { rows: PriceRow[] } | { problem: BatchProblem } {
  if (selected.size === 0) return { problem: 'selectFirst' };
  if (mode === 'bothRatio' && (first.trim() === '' || second.trim() === ''))
    return { problem: 'bothRequired' };
  if (first.trim() === '') return { problem: 'valueRequired' };
  const a = parseNumberField(first);
  const b = mode === 'bothRatio' ? parseNumberField(second) : undefined;
  if (a === null || a === undefined || b === null) return { problem: 'notNumber' };
  if (mode === 'price' && a === 0) return { problem: 'priceZero' };
  return {
    rows: rows
      .map((row) => {
        if (!selected.has(row.name)) return row;
        switch (mode) {
          case 'price':
            return { name: row.name, price: a };
          case 'ratio':
            return { name: row.name, ratio: a, completionRatio: row.completionRatio };
          case 'completionRatio':
            return { name: row.name, ratio: row.ratio, completionRatio: a };
          case 'bothRatio':
            return { name: row.name, ratio: a, completionRatio: b };
        }
      })
      .map(dropUndefined),
  };
}

function dropUndefined(row: PriceRow): PriceRow {
  const clean: PriceRow = { name: row.name };
  if (row.price !== undefined) clean.price = row.price;
  if (row.ratio !== undefined) clean.ratio = row.ratio;
  if (row.completionRatio !== undefined) clean.completionRatio = row.completionRatio;
  return clean;
}

/** Enabled models that have neither a fixed price nor a model ratio (they cannot be billed yet). */
export function modelsWithoutPrice(
  enabled: readonly string[],
  modelPrice: string,
  modelRatio: string,
): string[] {
  const prices = parseNumberMap(modelPrice);
  const ratios = parseNumberMap(modelRatio);
  return [...new Set(enabled)]
    .filter((name) => !(name in prices) && !(name in ratios))
    .sort((a, b) => a.localeCompare(b));
}
