import { asObject, isObject, num, parseJson, str } from './json';

describe('common JSON helpers', () => {
  it('tells objects from arrays, null and primitives', () => {
    expect([{}, { a: 1 }].map(isObject)).toEqual([true, true]);
    expect([null, undefined, [], 'x', 1, true].map(isObject)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(asObject({ a: 1 })).toEqual({ a: 1 });
    expect([null, [1], 'x', 0].map(asObject)).toEqual([{}, {}, {}, {}]);
  });

  it('reads strings, finite numbers and JSON text without throwing', () => {
    expect([str('a'), str(1)]).toEqual(['a', undefined]);
    expect([num(2), num(NaN), num(Infinity), num('2')]).toEqual([2, undefined, undefined, undefined]);
    expect(parseJson('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJson('{not json')).toBeUndefined();
  });
});
