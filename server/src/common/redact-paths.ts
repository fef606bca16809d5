import { JSONPath } from 'jsonpath-plus';

/**
 * The redaction paths of content logs (option ContentLogRedactPaths): JSONPath expressions, one per
 * line, checked when the option is saved and applied when content is stored.
 */

/** One configured path in JSONPath form: `messages[*].content` means `$.messages[*].content`. */
export function normalizePath(path: string): string {
  const p = path.trim();
  if (p.startsWith('$')) return p;
  return p.startsWith('[') ? `$${p}` : `$.${p}`;
}

/** The configured paths, one per line (commas also separate); blank lines ignored. */
export function parsePaths(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map(normalizePath);
}

/** Why a configured path cannot be used, or null. Script filters are refused (paths never run code). */
export function pathProblem(path: string): string | null {
  if (path.length > 512) return `${path.slice(0, 40)}…: longer than 512 characters`;
  const p = normalizePath(path);
  // Brackets and quotes must pair up (the library reads a broken path leniently as another path).
  let depth = 0;
  let quote = '';
  for (const ch of p) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth < 0) break;
  }
  if (depth !== 0 || quote) return `${path}: unbalanced brackets or quotes`;
  let parts: string[];
  try {
    parts = JSONPath.toPathArray(p);
  } catch (err) {
    return `${path}: ${(err as Error).message}`;
  }
  if (parts.length < 2) return `${path}: selects nothing`;
  if (parts.some((s) => s.startsWith('?(') || s.startsWith('(')))
    return `${path}: script expressions are not allowed`;
  return null;
}
