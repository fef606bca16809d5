import { withModelName } from './json';

describe('withModelName', () => {
  it('replaces only the value of the one "model" member, in text and in bytes, spacing kept', () => {
    const text = '{ "id":"x", "model" :\n "gpt-4o-2024-08-06", "choices":[{"text":"a \\"quoted\\" model"}] }';
    const want = '{ "id":"x", "model" :\n "gpt-4o", "choices":[{"text":"a \\"quoted\\" model"}] }';
    expect(withModelName(text, 'gpt-4o')).toBe(want);
    expect(withModelName(Buffer.from(text), 'gpt-4o')!.toString()).toBe(want);
  });

  it('gives the text itself when the name is already there, spelled the same', () => {
    const text = '{"id":"x","model":"gpt-4o","usage":{}}';
    expect(withModelName(text, 'gpt-4o')).toBe(text);
    // Spelled otherwise (an escape), or a longer name sharing the start: rewritten.
    expect(withModelName('{"model":"gpt\\u002d4o"}', 'gpt-4o')).toBe('{"model":"gpt-4o"}');
    expect(withModelName('{"model":"gpt-4o-mini"}', 'gpt-4o')).toBe('{"model":"gpt-4o"}');
    expect(withModelName('{"model":"gpt-4o"}', 'gpt-4o-mini')).toBe('{"model":"gpt-4o-mini"}');
  });

  it('writes the new name as a JSON string and skips escapes inside the old one', () => {
    expect(withModelName('{"model":"a\\"b\\\\","n":1}', 'x"y')).toBe('{"model":"x\\"y","n":1}');
    expect(withModelName('{"model":"","n":1}', '模型')).toBe('{"model":"模型","n":1}');
  });

  it('leaves the text to the serialiser when the top-level key cannot be told for sure', () => {
    // Twice (a string value "model" elsewhere), absent, not a string, cut short.
    expect(withModelName('{"model":"a","messages":[{"content":"model"}]}', 'b')).toBeNull();
    expect(withModelName('{"name":"a"}', 'b')).toBeNull();
    expect(withModelName('{"model":null}', 'b')).toBeNull();
    expect(withModelName('{"model":"abc', 'b')).toBeNull();
    // The top-level key written with escapes, a literal one nested: not touched.
    expect(withModelName('{"mod\\u0065l":"a","meta":{"model":"a"}}', 'b')).toBeNull();
    expect(withModelName(Buffer.from('{"\\u006dodel":"a","x":{"model":"a"}}'), 'b')).toBeNull();
  });
});
