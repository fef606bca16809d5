import { ADAPTERS, adapterFor } from '.';

describe('adapter registry', () => {
  const expected: Record<string, number[]> = {
    openai: [1, 6, 7, 8, 9, 10, 12, 13, 17, 19, 20, 21, 22, 25, 26, 27, 31, 35, 40, 42, 43, 45, 46, 47, 48],
    azure: [3],
    ollama: [4],
    anthropic: [14],
    gemini: [24],
    cohere: [34],
    dify: [37],
    jina: [38],
    cloudflare: [39],
    moka: [44],
  };

  it('maps every listed channel type to its adapter', () => {
    for (const [name, types] of Object.entries(expected)) {
      for (const type of types) expect([type, adapterFor(type)?.name]).toEqual([type, name]);
    }
    expect(
      Object.keys(ADAPTERS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(
      Object.values(expected)
        .flat()
        .sort((a, b) => a - b),
    );
  });

  it('has no adapter for other types yet', () => {
    for (const type of [0, 2, 5, 11, 15, 16, 18, 23, 33, 36, 41, 99]) expect(adapterFor(type)).toBeNull();
  });

  it('declares formats and modes', () => {
    expect(adapterFor(14)?.format).toBe('anthropic');
    expect(adapterFor(24)?.format).toBe('gemini');
    for (const type of [1, 3, 4, 34, 37, 38, 39, 44]) expect(adapterFor(type)?.format).toBe('openai');
    for (const adapter of Object.values(ADAPTERS)) expect(adapter.modes.length).toBeGreaterThan(0);
  });
});
