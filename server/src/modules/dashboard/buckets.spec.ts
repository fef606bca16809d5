import { bucketStart, isGranularity } from './buckets';

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime() / 1000;

describe('dashboard buckets (local time)', () => {
  it('takes an instant to the start of its hour', () => {
    expect(bucketStart(at(2025, 3, 12, 14, 59, 59), 'hour')).toBe(at(2025, 3, 12, 14));
    expect(bucketStart(at(2025, 3, 12, 14), 'hour')).toBe(at(2025, 3, 12, 14));
  });

  it('takes an instant to the start of its day', () => {
    expect(bucketStart(at(2025, 3, 12, 23, 59, 59), 'day')).toBe(at(2025, 3, 12));
    expect(bucketStart(at(2025, 3, 13), 'day')).toBe(at(2025, 3, 13));
  });

  it('takes an instant to the Monday of its week, across month and year ends', () => {
    // 2025-03-12 is a Wednesday; 2025-03-16 a Sunday; 2025-03-17 a Monday.
    expect(bucketStart(at(2025, 3, 12, 10), 'week')).toBe(at(2025, 3, 10));
    expect(bucketStart(at(2025, 3, 16, 23, 30), 'week')).toBe(at(2025, 3, 10));
    expect(bucketStart(at(2025, 3, 17), 'week')).toBe(at(2025, 3, 17));
    // 2026-01-01 is a Thursday: its week began on Monday 2025-12-29.
    expect(bucketStart(at(2026, 1, 1, 8), 'week')).toBe(at(2025, 12, 29));
  });

  it('knows the three granularities and nothing else', () => {
    expect(['hour', 'day', 'week'].every(isGranularity)).toBe(true);
    expect(['month', 'HOUR', '', 'minute'].some(isGranularity)).toBe(false);
  });
});
