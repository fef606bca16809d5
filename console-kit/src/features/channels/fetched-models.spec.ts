import { describe, expect, it } from 'vitest';
import { fetchedModelEntries, initialPick, pickedModels } from './fetched-models';

describe('fetched models picker', () => {
  const current = ['gpt-4o', 'my-custom', 'gpt-4o-mini'];
  const fetched = ['gpt-4o-mini', 'gpt-4o', 'o3', 'o3'];

  it('lists the channel models first, then the new upstream ones, each once', () => {
    expect(fetchedModelEntries(current, fetched)).toEqual([
      { name: 'gpt-4o', inChannel: true, upstream: true },
      { name: 'my-custom', inChannel: true, upstream: false },
      { name: 'gpt-4o-mini', inChannel: true, upstream: true },
      { name: 'o3', inChannel: false, upstream: true },
    ]);
  });

  it('merges by default: nothing of the channel is lost, new models are added', () => {
    const entries = fetchedModelEntries(current, fetched);
    expect(pickedModels(entries, initialPick(entries))).toEqual(['gpt-4o', 'my-custom', 'gpt-4o-mini', 'o3']);
  });

  it('applies exactly what was ticked', () => {
    const entries = fetchedModelEntries(current, fetched);
    expect(pickedModels(entries, new Set(['o3', 'gpt-4o']))).toEqual(['gpt-4o', 'o3']);
  });
});
