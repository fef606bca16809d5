import { Column, ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * 64-bit integers and doubles come back as strings from pg (and bigints past 2^53 from mysql2); quota
 * never exceeds 2^53.
 */
const numberTransformer: ValueTransformer = {
  to: (v: unknown) => v,
  from: (v: unknown) => (v === null || v === undefined ? v : Number(v)),
};

export function BigIntColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'bigint', default: 0, transformer: numberTransformer, ...options });
}

export function DoubleColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'double precision', default: 0, transformer: numberTransformer, ...options });
}

/** Booleans are stored as small integers by MySQL and SQLite; normalise them. */
export const boolTransformer: ValueTransformer = {
  to: (v: unknown) => v,
  from: (v: unknown) => v === true || v === 1 || v === '1' || v === 't',
};

export function BoolColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'boolean', default: false, transformer: boolTransformer, ...options });
}

/** Large text: `longtext` on MySQL (whose `text` stops at 64 KiB), `text` elsewhere. */
export function LongTextColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'text', nullable: true, ...options });
}
