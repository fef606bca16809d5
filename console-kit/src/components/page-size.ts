/** Page sizes every paged list offers, and the size used when none (or an odd one) is stored. */
export const LIST_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_LIST_PAGE_SIZE = 10;
/** The local-storage key (docs/decisions.md#page-sizes) that remembers the chosen page size. */
export const LIST_PAGE_SIZE_KEY = 'page-size';

/** A stored or chosen page size → one of LIST_PAGE_SIZES (else the default). */
export function listPageSize(raw: string | number | null | undefined): number {
  const value = Number(raw);
  return (LIST_PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_LIST_PAGE_SIZE;
}
