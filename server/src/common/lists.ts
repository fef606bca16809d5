/** A comma-separated list (models, groups, addresses) → its distinct, trimmed, non-empty items in order. */
export const splitList = (s: string | null | undefined): string[] => [
  ...new Set(
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  ),
];
