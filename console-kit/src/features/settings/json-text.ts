/** Checks for the JSON textareas of the option panels (validated on blur and again on save). */
export type JsonShape = 'object' | 'array' | 'number-map' | 'any';

export type JsonProblem = 'invalid' | 'shape';

/** null when `text` is JSON of the wanted shape; an empty text counts as valid (the server decides). */
export function checkJsonText(text: string, shape: JsonShape = 'any'): JsonProblem | null {
  if (text.trim() === '') {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  switch (shape) {
    case 'object':
      return isObject ? null : 'shape';
    case 'array':
      return Array.isArray(parsed) ? null : 'shape';
    case 'number-map':
      return isObject &&
        Object.values(parsed as Record<string, unknown>).every(
          (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
        )
        ? null
        : 'shape';
    default:
      return null;
  }
}

/** Re-indents valid JSON with two spaces; anything else comes back untouched. */
export function formatJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Two JSON texts that mean the same thing (whitespace and key order aside). */
export function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(canonical(JSON.parse(a))) === JSON.stringify(canonical(JSON.parse(b)));
  } catch {
    return a === b;
  }
}

/** Parses a JSON object of name → number, keeping only finite numbers; anything else gives {}. */
export function parseNumberMap(text: string): Record<string, number> {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return {};
    }
    const result: Record<string, number> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === 'number' && Number.isFinite(value)) {
        result[key] = value;
      }
    }
    return result;
  } catch {
    return {};
  }
}
