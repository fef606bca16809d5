import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  codesText,
  redemptionActions,
  redemptionExpiryLabel,
  redemptionExpiryText,
  redemptionStatusName,
  validateRedemptionForm,
} from './redemption-rules';

describe('redemption rules', () => {
  it('names the statuses; an unused code past its expiry is expired', () => {
    expect(redemptionStatusName({ status: 1, expired_time: 0 }, 1000)).toBe('unused');
    expect(redemptionStatusName({ status: 1, expired_time: 2000 }, 1000)).toBe('unused');
    expect(redemptionStatusName({ status: 1, expired_time: 900 }, 1000)).toBe('expired');
    expect(redemptionStatusName({ status: 2, expired_time: 0 }, 1000)).toBe('disabled');
    expect(redemptionStatusName({ status: 3, expired_time: 0 }, 1000)).toBe('used');
    expect(redemptionStatusName({ status: 7, expired_time: 0 }, 1000)).toBe('unknown');
  });

  it('offers enable only for disabled codes, disable and edit only for unused ones', () => {
    expect(redemptionActions({ status: 1 })).toEqual({ enable: false, disable: true, edit: true });
    expect(redemptionActions({ status: 2 })).toEqual({ enable: true, disable: false, edit: false });
    expect(redemptionActions({ status: 3 })).toEqual({ enable: false, disable: false, edit: false });
  });

  it('validates the drawer', () => {
    const ok = { name: 'gift', quota: '100000', count: '1', expiry: '' };
    expect(validateRedemptionForm(ok, true)).toEqual({
      ok: true,
      name: 'gift',
      quota: 100000,
      count: 1,
      expiredTime: 0,
    });
    // Empty name on create: the server names the code after its quota; on edit a name is required.
    expect(validateRedemptionForm({ ...ok, name: ' ' }, true).ok).toBe(true);
    expect(validateRedemptionForm({ ...ok, name: '' }, false)).toEqual({ ok: false, error: 'nameLength' });
    expect(validateRedemptionForm({ ...ok, name: '码'.repeat(20) }, true).ok).toBe(true);
    expect(validateRedemptionForm({ ...ok, name: 'x'.repeat(21) }, true)).toEqual({
      ok: false,
      error: 'nameLength',
    });
    for (const quota of ['0', '-5', '1.5', 'abc', '', '9007199254740993']) {
      expect(validateRedemptionForm({ ...ok, quota }, true)).toEqual({ ok: false, error: 'quotaInvalid' });
    }
    expect(validateRedemptionForm({ ...ok, count: '0' }, true)).toEqual({ ok: false, error: 'countInvalid' });
    expect(validateRedemptionForm({ ...ok, count: '2.5' }, true)).toEqual({
      ok: false,
      error: 'countInvalid',
    });
    expect(validateRedemptionForm({ ...ok, count: '101' }, true)).toEqual({
      ok: false,
      error: 'countTooMany',
    });
    expect(validateRedemptionForm({ ...ok, count: '100' }, true).ok).toBe(true);
    // The count is not part of an edit.
    expect(validateRedemptionForm({ ...ok, count: 'x' }, false).ok).toBe(true);
  });

  it('checks the expiry: empty is never (0), else a future YYYY-MM-DD HH:mm:ss time', () => {
    const ok = { name: 'gift', quota: '100000', count: '1', expiry: '' };
    const at = dayjs('2030-01-02T03:04:05');
    const now = at.unix() - 60;
    const checked = validateRedemptionForm({ ...ok, expiry: '2030-01-02 03:04:05' }, true, now);
    expect(checked).toMatchObject({ ok: true, expiredTime: at.unix() });
    for (const expiry of ['2030-01-02', '2030-13-02 03:04:05', 'tomorrow', 'invalid']) {
      expect(validateRedemptionForm({ ...ok, expiry }, true, now)).toEqual({
        ok: false,
        error: 'expiryInvalid',
      });
    }
    // A time that has passed is refused, unless an edit keeps the stored one unchanged.
    expect(validateRedemptionForm({ ...ok, expiry: '2030-01-02 03:04:05' }, true, at.unix() + 1)).toEqual({
      ok: false,
      error: 'expiryPast',
    });
    expect(
      validateRedemptionForm({ ...ok, expiry: '2030-01-02 03:04:05' }, false, at.unix() + 1, at.unix()),
    ).toMatchObject({ ok: true, expiredTime: at.unix() });
  });

  it('shows the expiry: empty or "never" for 0, else the local time', () => {
    expect(redemptionExpiryText(0)).toBe('');
    expect(redemptionExpiryText(undefined)).toBe('');
    expect(redemptionExpiryLabel(0)).toBeNull();
    const at = dayjs('2030-01-02T03:04:05');
    expect(redemptionExpiryText(at.unix())).toBe('2030-01-02 03:04:05');
    expect(redemptionExpiryLabel(at.unix())).toBe('2030-01-02 03:04:05');
  });

  it('copies the created codes one per line', () => {
    expect(codesText(['a', 'b'])).toBe('a\nb');
  });
});
