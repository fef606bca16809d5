import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('jsonTooDeep', () => {
  it('accepts nesting up to the limit and refuses one level more, for text and bytes', () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(Buffer.from(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonTooDeep(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonTooDeep('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(jsonTooDeep('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
  });

  it('counts depth, not the number of brackets: siblings do not add up', () => {
    const wide = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ i, v: [i, [i]] })));
    expect(jsonTooDeep(wide, 4)).toBe(false);
    expect(jsonTooDeep(wide, 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const body = JSON.stringify({ text: '[[[[{{{{"\\"[[[[', again: ['"]]]]{'] });
    expect(jsonTooDeep(body, 2)).toBe(false);
    expect(jsonTooDeep(Buffer.from(body), 2)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: '中文[[[[[[' }), 1)).toBe(false);
    expect(jsonTooDeep(Buffer.from(JSON.stringify({ s: '中文[[[[[[' })), 1)).toBe(false);
  });

  it('scans a body nested 100,000 deep without recursion', () => {
    expect(jsonTooDeep(nested(100_000, '{"a":', '}'))).toBe(true);
    expect(jsonTooDeep(Buffer.from(nested(100_000)))).toBe(true);
  });
});
