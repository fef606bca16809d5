import {
  dayStartInstant,
  isTimeZone,
  localDay,
  offsetAt,
  offsetStretches,
  periodBounds,
  periodLabel,
  periodStartDay,
} from './calendar';

const utc = (s: string) => Date.parse(`${s}Z`) / 1000;

describe('calendar periods in a time zone', () => {
  it('knows zone names', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('finds the offset and cuts a range at daylight-saving changes, to the second', () => {
    expect(offsetAt('Asia/Kolkata', utc('2026-01-01T00:00:00'))).toBe(19_800);
    const change = utc('2026-03-08T07:00:00'); // 02:00 EST → 03:00 EDT
    const parts = offsetStretches('America/New_York', utc('2026-03-01T00:00:00'), utc('2026-04-01T00:00:00'));
    expect(parts).toEqual([
      { from: utc('2026-03-01T00:00:00'), to: change - 1, offset: -18_000 },
      { from: change, to: utc('2026-04-01T00:00:00'), offset: -14_400 },
    ]);
    expect(offsetStretches('UTC', 0, 10 * 86_400)).toHaveLength(1);
  });

  it('starts weeks on Monday and months on the 1st, in local time', () => {
    const day = localDay('America/New_York', utc('2026-03-09T03:59:59')); // Sunday 23:59:59 EDT
    expect(periodLabel(day, 'day')).toBe('2026-03-08');
    expect(periodLabel(periodStartDay(day, 'week'), 'week')).toBe('2026-03-02');
    expect(periodLabel(periodStartDay(day, 'month'), 'month')).toBe('2026-03');
    expect(dayStartInstant('America/New_York', day)).toBe(utc('2026-03-08T05:00:00'));
  });

  it('gives the bounds of the period holding an instant (the next period starts where this one ends)', () => {
    const zone = 'Asia/Shanghai';
    expect(periodBounds(zone, utc('2026-11-25T16:30:00'), 'day')).toEqual({
      start: utc('2026-11-25T16:00:00'),
      end: utc('2026-11-26T16:00:00'),
    });
    expect(periodBounds(zone, utc('2026-11-30T15:59:59'), 'month')).toEqual({
      start: utc('2026-10-31T16:00:00'),
      end: utc('2026-11-30T16:00:00'),
    });
    expect(periodBounds(zone, utc('2026-12-31T16:00:00'), 'week').start).toBe(utc('2026-12-27T16:00:00'));
  });
});
