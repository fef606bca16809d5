/**
 * The models typical for a channel type, from `GET /api/models` ({"<type>": [models]}): each name once,
 * blanks dropped, in the server's order. An unknown type or a missing list gives [].
 */
export function relatedModels(byType: Record<string, unknown> | undefined, type: number): string[] {
  const list = byType?.[String(type)];
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const name = item.trim();
    if (name !== '' && !out.includes(name)) out.push(name);
  }
  return out;
}
