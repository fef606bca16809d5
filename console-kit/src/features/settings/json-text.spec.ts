import { describe, expect, it } from 'vitest';
import { checkJsonText, formatJsonText, parseNumberMap, sameJson } from './json-text';

describe('checkJsonText', () => {
  it('accepts empty text and valid JSON of the wanted shape', () => {
    expect(checkJsonText('')).toBeNull();
    expect(checkJsonText('  ', 'object')).toBeNull();
    expect(checkJsonText('{"a":1}', 'object')).toBeNull();
    expect(checkJsonText('[1,2]', 'array')).toBeNull();
    expect(checkJsonText('{"gpt-4o":1.25,"x":0}', 'number-map')).toBeNull();
    expect(checkJsonText('"just a string"')).toBeNull();
  });

  it('says invalid for text that does not parse', () => {
    expect(checkJsonText('{a:1}', 'object')).toBe('invalid');
    expect(checkJsonText('{"a":1,}', 'any')).toBe('invalid');
    expect(checkJsonText('NaN', 'number-map')).toBe('invalid');
  });

  it('says shape for valid JSON of the wrong shape', () => {
    expect(checkJsonText('[]', 'object')).toBe('shape');
    expect(checkJsonText('null', 'object')).toBe('shape');
    expect(checkJsonText('{"a":1}', 'array')).toBe('shape');
    expect(checkJsonText('{"a":"1"}', 'number-map')).toBe('shape');
    expect(checkJsonText('{"a":-1}', 'number-map')).toBe('shape');
    expect(checkJsonText('{"a":{"b":1}}', 'number-map')).toBe('shape');
  });
});

describe('sameJson / formatJsonText / parseNumberMap', () => {
  it('compares by meaning, nested key order included', () => {
    expect(sameJson('{"a":{"x":1,"y":[1,2]},"b":2}', '{ "b": 2, "a": { "y": [1, 2], "x": 1 } }')).toBe(true);
    expect(sameJson('[1,2]', '[2,1]')).toBe(false);
    expect(sameJson('not json', 'not json')).toBe(true);
    expect(sameJson('not json', '{}')).toBe(false);
  });

  it('re-indents valid JSON and leaves broken text as typed', () => {
    expect(formatJsonText('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatJsonText('{oops')).toBe('{oops');
  });

  it('keeps only the finite numbers of an object', () => {
    expect(parseNumberMap('{"a":1,"b":"2","c":null,"d":0.5}')).toEqual({ a: 1, d: 0.5 });
    expect(parseNumberMap('[1]')).toEqual({});
    expect(parseNumberMap('garbage')).toEqual({});
  });
});
