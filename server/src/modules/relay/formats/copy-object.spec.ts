import { copyObject } from './json';

describe('copyObject', () => {
  it('copies every own key in order, values shared, the source left as it was', () => {
    const messages = [{ role: 'user', content: '你好' }];
    const source = JSON.parse('{"model":"gpt-4o","messages":[{"role":"user","content":"你好"}],"n":2}');
    const copy = copyObject(source);
    expect(Object.keys(copy)).toEqual(['model', 'messages', 'n']);
    expect(copy).toEqual({ model: 'gpt-4o', messages, n: 2 });
    expect(copy.messages).toBe(source.messages);
    copy.stream_options = { include_usage: true };
    copy.model = 'other';
    expect(source).toEqual({ model: 'gpt-4o', messages, n: 2 });
  });

  it('keeps a body\'s own "__proto__" key as data, as a spread does, never as the copy\'s prototype', () => {
    const source = JSON.parse('{"model":"m","__proto__":{"polluted":true},"temperature":1}');
    const copy = copyObject(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['model', '__proto__', 'temperature']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source }));
    expect(JSON.stringify(copy)).toBe('{"model":"m","__proto__":{"polluted":true},"temperature":1}');
    // Still an ordinary own property: it can be replaced and removed like any other.
    copy['__proto__'] = 1;
    expect(JSON.stringify(copy)).toBe('{"model":"m","__proto__":1,"temperature":1}');
    delete copy['__proto__'];
    expect(Object.keys(copy)).toEqual(['model', 'temperature']);
  });
});
