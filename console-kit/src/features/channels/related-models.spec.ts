import { describe, expect, it } from 'vitest';
import { relatedModels } from './related-models';

describe('relatedModels', () => {
  it("picks the type's list, once each, without blanks or non-text entries", () => {
    expect(relatedModels({ '14': ['a', ' b ', 'a', '', 3, 'c'], '1': ['x'] }, 14)).toEqual(['a', 'b', 'c']);
  });

  it('gives nothing for an unknown type, a missing map or a value that is not a list', () => {
    expect(relatedModels({ '1': ['x'] }, 99)).toEqual([]);
    expect(relatedModels(undefined, 1)).toEqual([]);
    expect(relatedModels({ '1': 'x' }, 1)).toEqual([]);
  });
});
