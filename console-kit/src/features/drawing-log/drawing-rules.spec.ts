import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  drawingActionKey,
  drawingListUrl,
  drawingStatusKey,
  durationColor,
  durationSeconds,
  emptyDrawingFilters,
  progressPercent,
  submitResultKey,
} from './drawing-rules';
import { isWebUrl } from './drawing-log-page';

describe('drawing log rules', () => {
  it('defaults to 30 days ago until one hour ahead, in milliseconds', () => {
    const now = dayjs('2026-03-31T12:00:00');
    const filters = emptyDrawingFilters(now);
    expect(filters.startMs).toBe(dayjs('2026-03-01T12:00:00').valueOf());
    expect(filters.endMs).toBe(dayjs('2026-03-31T13:00:00').valueOf());
  });

  it('builds the admin and the self list URLs (channel only for admins)', () => {
    const filters = { channelId: ' 4 ', mjId: 'abc', startMs: 1700000000000, endMs: 0 };
    expect(drawingListUrl(filters, true, 1, 10)).toBe(
      '/api/mj/?p=1&page_size=10&channel_id=4&mj_id=abc&start_timestamp=1700000000000',
    );
    expect(drawingListUrl(filters, false, 2, 20)).toBe(
      '/api/mj/self/?p=2&page_size=20&mj_id=abc&start_timestamp=1700000000000',
    );
  });

  it('reads progress, duration and codes', () => {
    expect(progressPercent('45%')).toBe(45);
    expect(progressPercent('')).toBe(0);
    expect(progressPercent('abc')).toBe(0);
    expect(progressPercent('150%')).toBe(100);
    expect(durationSeconds(1000, 62500)).toBe(61.5);
    expect(durationSeconds(1000, 0)).toBeNull();
    expect(durationColor(61.5)).toBe('error');
    expect(durationColor(60)).toBe('success');
    expect([1, 21, 22, 0, 7].map(submitResultKey)).toEqual([
      'submitted',
      'waiting',
      'duplicate',
      'notSubmitted',
      'unknown',
    ]);
    expect(drawingActionKey('IMAGINE')).toBe('IMAGINE');
    expect(drawingActionKey('SOMETHING')).toBe('unknown');
    expect(drawingStatusKey('MODAL')).toBe('MODAL');
    expect(drawingStatusKey('')).toBe('unknown');
  });

  it('shows only web addresses as images', () => {
    expect(isWebUrl('https://cdn.example.com/a.png')).toBe(true);
    expect(isWebUrl('/mj/image/abc')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('data:image/png;base64,AAAA')).toBe(false);
  });
});
