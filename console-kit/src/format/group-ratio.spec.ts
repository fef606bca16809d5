import { describe, expect, it } from 'vitest';
import { groupRatioColor } from './group-ratio';

describe('groupRatioColor', () => {
  it('colours a ratio above 5 red, above 3 orange, above 1 blue, else green', () => {
    expect([5.5, 5, 3.1, 3, 1.5, 1, 0.5].map(groupRatioColor)).toEqual([
      'error',
      'warning',
      'warning',
      'primary',
      'primary',
      'success',
      'success',
    ]);
  });
});
