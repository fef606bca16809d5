/**
 * Safety settings from the relay settings: a threshold per harm category, `default` applying to the
 * five standard categories that have no entry of their own. Other named categories are kept too.
 */
import type { JsonRecord } from '../util';

export const STANDARD_HARM_CATEGORIES: readonly string[] = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

export function geminiSafetySettings(table: Record<string, string>): JsonRecord[] {
  const extra = Object.keys(table).filter(
    (key) => key !== 'default' && !STANDARD_HARM_CATEGORIES.includes(key),
  );
  return [...STANDARD_HARM_CATEGORIES, ...extra].flatMap((category) => {
    const threshold = table[category] ?? table.default;
    return threshold ? [{ category, threshold }] : [];
  });
}
