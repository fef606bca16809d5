export interface PageQuery {
  page: number;
  pageSize: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

function toInt(v: unknown): number | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const n = Number.parseInt(String(v), 10);
  return Number.isFinite(n) ? n : null;
}

/** `?p=` is 1-based (p < 1 means 1); the size comes as `page_size`, `size` or `ps` (default 10, at most 100). */
export function parsePage(query: Record<string, unknown>): PageQuery {
  const page = Math.max(1, toInt(query.p) ?? 1);
  const rawSize = toInt(query.page_size) ?? toInt(query.size) ?? toInt(query.ps) ?? DEFAULT_PAGE_SIZE;
  const pageSize = Math.min(MAX_PAGE_SIZE, rawSize < 1 ? DEFAULT_PAGE_SIZE : rawSize);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pageOf<T>(items: T[], total: number, q: PageQuery): Page<T> {
  return { items, total, page: q.page, page_size: q.pageSize };
}

/**
 * Escapes LIKE wildcards so user input matches literally; use with LIKE_ESCAPE. The escape character is
 * `!`, not a backslash: in MySQL/MariaDB string literals a backslash escapes the closing quote, so
 * `ESCAPE '\\'` is a syntax error there.
 */
export function escapeLike(input: string): string {
  return input.replace(/[!%_]/g, (c) => '!' + c);
}

export const LIKE_ESCAPE = "ESCAPE '!'";
