/** One line of the fetched-models picker. */
export interface FetchedModelEntry {
  name: string;
  /** Already in the channel's model list. */
  inChannel: boolean;
  /** Offered by the upstream's model list. */
  upstream: boolean;
}

/**
 * The picker's lines: the channel's models first (in their order), then the upstream's new ones.
 * A channel model the upstream does not list is kept as a line, so nothing disappears unseen.
 */
export function fetchedModelEntries(
  current: readonly string[],
  fetched: readonly string[],
): FetchedModelEntry[] {
  const offered = new Set(fetched);
  const inChannel = new Set(current);
  const entries: FetchedModelEntry[] = [];
  const seen = new Set<string>();
  for (const name of current) {
    if (!seen.has(name)) {
      seen.add(name);
      entries.push({ name, inChannel: true, upstream: offered.has(name) });
    }
  }
  for (const name of fetched) {
    if (!seen.has(name) && !inChannel.has(name)) {
      seen.add(name);
      entries.push({ name, inChannel: false, upstream: true });
    }
  }
  return entries;
}

/** What starts ticked: everything already in the channel (a merge removes nothing) and every new model. */
export function initialPick(entries: readonly FetchedModelEntry[]): Set<string> {
  return new Set(entries.map((entry) => entry.name));
}

/** The channel's new model list: the ticked lines in the picker's order. */
export function pickedModels(entries: readonly FetchedModelEntry[], picked: ReadonlySet<string>): string[] {
  return entries.filter((entry) => picked.has(entry.name)).map((entry) => entry.name);
}
