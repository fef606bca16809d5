import { describe, expect, it } from 'vitest';
import { formatDateTime } from './date-time';

describe('formatDateTime', () => {
  it('writes a moment the same way whatever the browser locale', () => {
    const seconds = Math.floor(new Date(2026, 10, 26, 1, 15, 6).getTime() / 1000);
    expect(formatDateTime(seconds)).toBe('2026-11-26 01:15:06');
  });

  it('gives nothing for a missing time', () => {
    expect(formatDateTime(0)).toBe('');
    expect(formatDateTime(null)).toBe('');
  });
});
