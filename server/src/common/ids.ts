/** Largest value of the 32-bit integer id and count columns (the same on every database). */
export const INT32_MAX = 2147483647;

/** A value that can be a row id (ids are 32-bit on every database; larger numbers match nothing). */
export const isRowId = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= INT32_MAX;
