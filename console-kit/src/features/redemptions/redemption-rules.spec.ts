import { describe, expect, it } from 'vitest';
import {
  codesText,
  redemptionActions,
  redemptionStatusName,
  validateRedemptionForm,
} from './redemption-rules';

describe('redemption rules', () => {
  it('names the statuses; an unused code past its expiry is expired', () => {
    expect(redemptionStatusName({ status: 1, expired_time: 0 }, 1000)).toBe('unused');
    expect(redemptionStatusName({ status: 1, expired_time: 2000 }, 1000)).toBe('unused');
    expect(redemptionStatusName({ status: 1, expired_time: 900 }, 1000)).toBe('expired');
    expect(redemptionStatusName({ status: 2 }, 1000)).toBe('disabled');
    expect(redemptionStatusName({ status: 3 }, 1000)).toBe('used');
    expect(redemptionStatusName({ status: 7 }, 1000)).toBe('unknown');
  });

  it('offers enable only for disabled codes, disable and edit only for unused ones', () => {
    expect(redemptionActions({ status: 1 })).toEqual({ enable: false, disable: true, edit: true });
    expect(redemptionActions({ status: 2 })).toEqual({ enable: true, disable: false, edit: false });
    expect(redemptionActions({ status: 3 })).toEqual({ enable: false, disable: false, edit: false });
  });

  it('validates the drawer', () => {
    const ok = { name: 'gift', quota: '100000', count: '1' };
    expect(validateRedemptionForm(ok, true)).toEqual({ ok: true, name: 'gift', quota: 100000, count: 1 });
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

  it('copies the created codes one per line', () => {
    expect(codesText(['a', 'b'])).toBe('a\nb');
  });
});
