import { finder } from './json';

describe('finder (a JSON key searched for by its tail)', () => {
  const cases = [
    '{"usage":null}',
    '{"id":"x","usage":{"prompt_tokens":1}}',
    'usage"',
    '"usage',
    '{"content":"a \\"usage\\" word","usage":null}',
    '{"content":"usage\\"","x":1}',
    '{"error":{"message":"boom"}}',
    '{"content":"terror"}',
    'rror"',
    '""error"',
    '{"model":"gpt-4o-mini-2024","model":"gpt-4o-mini"}',
    '{"model":"gpt-4o-mini"}',
    '{"model": "gpt-4o-mini"}',
    '{"model":"模型"}',
    '',
  ];
  const patterns: Array<[string, number]> = [
    ['"usage"', 1],
    ['"error"', 2],
    ['"model":"gpt-4o-mini"', 1],
    ['"model":"模型"', 1],
  ];

  it('finds what indexOf finds, at the same place, in every case', () => {
    for (const [pattern, skip] of patterns) {
      const at = finder(pattern, skip);
      for (const text of cases)
        expect([pattern, text, at(text)]).toEqual([pattern, text, text.indexOf(pattern)]);
    }
  });

  it('searches from a given place, as indexOf does', () => {
    const at = finder('"model"', 1);
    const text = '{"model":"a","messages":[],"model":"b"}';
    expect(at(text, 0)).toBe(1);
    expect(at(text, 2)).toBe(text.indexOf('"model"', 2));
    expect(at(text, 30)).toBe(-1);
  });

  it('skips tails that are not preceded by the rest of the pattern', () => {
    expect(finder('"usage"', 1)('{"content":"usage\\"","usage":null}')).toBe(21);
    expect(finder('"error"', 2)('{"content":"terror","x":"error"}')).toBe(24);
    expect(finder('"model":"a"', 1)('{"model":"ab","model":"a"}')).toBe(14);
  });
});
