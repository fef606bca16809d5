import { sameJson } from './json-text';

/** How a panel field is edited; decides how "changed" is judged and the order of saving. */
export type OptionFieldKind =
  'bool' | 'text' | 'url' | 'int' | 'float' | 'json' | 'textarea' | 'secret' | 'select' | 'custom';

export interface OptionEntry {
  key: string;
  value: string;
}

export interface DiffField {
  key: string;
  kind: OptionFieldKind;
}

/** Spec: server addresses lose a trailing slash before they are saved. */
export function normalizeOptionValue(kind: OptionFieldKind, value: string): string {
  if (kind === 'url') {
    return value.trim().replace(/\/+$/, '');
  }
  if (kind === 'int' || kind === 'float') {
    return value.trim();
  }
  return value;
}

/**
 * The entries a panel has to send: only keys whose value differs from the stored one (JSON compared by
 * meaning), secrets only when something was typed (empty keeps the stored secret), and toggles first,
 * in field order, then everything else in field order (spec: toggle keys are saved first, one by one).
 */
export function changedOptionEntries(
  stored: Readonly<Record<string, string>>,
  draft: Readonly<Record<string, string>>,
  fields: readonly DiffField[],
): OptionEntry[] {
  const toggles: OptionEntry[] = [];
  const others: OptionEntry[] = [];
  for (const { key, kind } of fields) {
    if (!(key in draft)) {
      continue;
    }
    const value = normalizeOptionValue(kind, draft[key] ?? '');
    if (kind === 'secret') {
      if (value !== '') {
        others.push({ key, value });
      }
      continue;
    }
    const before = stored[key] ?? '';
    const unchanged =
      kind === 'json' ? sameJson(before, value) : normalizeOptionValue(kind, before) === value;
    if (unchanged) {
      continue;
    }
    (kind === 'bool' ? toggles : others).push({ key, value });
  }
  return [...toggles, ...others];
}

export interface SaveFailure {
  key: string;
  error: unknown;
}

export type SaveOutcome = 'nothing' | 'saved' | 'partial' | 'failed';

export interface SaveReport {
  outcome: SaveOutcome;
  saved: string[];
  failed: SaveFailure[];
}

/** Sends the entries one by one, in order; a failure does not stop the rest. */
export async function saveOptionEntries(
  entries: readonly OptionEntry[],
  put: (entry: OptionEntry) => Promise<unknown>,
): Promise<SaveReport> {
  const saved: string[] = [];
  const failed: SaveFailure[] = [];
  for (const entry of entries) {
    try {
      await put(entry);
      saved.push(entry.key);
    } catch (error) {
      failed.push({ key: entry.key, error });
    }
  }
  const outcome: SaveOutcome =
    entries.length === 0
      ? 'nothing'
      : failed.length === 0
        ? 'saved'
        : saved.length === 0
          ? 'failed'
          : 'partial';
  return { outcome, saved, failed };
}
