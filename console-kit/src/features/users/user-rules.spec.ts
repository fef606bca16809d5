import { describe, expect, it } from 'vitest';
import {
  canActOn,
  parsePageSize,
  parseQuota,
  parseQuotaDelta,
  quotaAfterDelta,
  roleName,
  rowActions,
  statusName,
} from './user-rules';
import { userListUrl, type AdminUser } from './users-api';

const user = (role: number, status = 1, deleted: string | null = null) =>
  ({ role, status, DeletedAt: deleted }) as AdminUser;

describe('who may act on whom', () => {
  it('admins act on lower roles only; root acts on everyone', () => {
    expect(canActOn(10, user(1))).toBe(true);
    expect(canActOn(10, user(10))).toBe(false);
    expect(canActOn(10, user(100))).toBe(false);
    expect(canActOn(100, user(100))).toBe(true);
  });

  it('offers an admin nothing on a peer, and nothing on a deregistered user', () => {
    expect(Object.values(rowActions(10, user(10))).some(Boolean)).toBe(false);
    expect(Object.values(rowActions(100, user(1, 1, '2024-01-01T00:00:00.000Z'))).some(Boolean)).toBe(false);
  });

  it('lets only root promote, and never demotes, disables or deletes root', () => {
    expect(rowActions(10, user(1)).promote).toBe(false);
    expect(rowActions(100, user(1)).promote).toBe(true);
    expect(rowActions(100, user(10))).toMatchObject({ promote: false, demote: true, delete: true });
    expect(rowActions(100, user(100))).toMatchObject({
      demote: false,
      disable: false,
      delete: false,
      edit: true,
    });
  });

  it('offers disable or enable by status; status 3 shows enable disabled', () => {
    expect(rowActions(10, user(1, 1))).toMatchObject({ disable: true, enable: false });
    expect(rowActions(10, user(1, 2))).toMatchObject({ disable: false, enable: true, enableDisabled: false });
    expect(rowActions(10, user(1, 3))).toMatchObject({ enable: true, enableDisabled: true });
  });
});

describe('labels, paging and quota input', () => {
  it('names roles and statuses, unknown otherwise', () => {
    expect([1, 10, 100, 5].map(roleName)).toEqual(['user', 'admin', 'root', 'unknown']);
    expect([1, 2, 3].map(statusName)).toEqual(['enabled', 'disabled', 'unknown']);
  });

  it('accepts only the offered page sizes', () => {
    expect(parsePageSize('50')).toBe(50);
    expect(parsePageSize('7')).toBe(10);
    expect(parsePageSize(null)).toBe(10);
    expect(parsePageSize('abc')).toBe(10);
  });

  it('parses a signed, non-zero delta and a non-negative balance', () => {
    expect(parseQuotaDelta('-500')).toBe(-500);
    expect(parseQuotaDelta(' 1000 ')).toBe(1000);
    expect(parseQuotaDelta('0')).toBeNull();
    expect(parseQuotaDelta('1.5')).toBeNull();
    expect(parseQuotaDelta('99999999999999999999')).toBeNull();
    expect(parseQuota('0')).toBe(0);
    expect(parseQuota('-1')).toBeNull();
    expect(quotaAfterDelta(100, -500)).toBe(-400);
    expect(quotaAfterDelta(100, 50)).toBe(150);
  });

  it('uses the plain list until something is searched for', () => {
    expect(userListUrl({ keyword: ' ', group: '', page: 2, pageSize: 20 })).toBe(
      '/api/user/?p=2&page_size=20',
    );
    expect(userListUrl({ keyword: 'a&b', group: 'vip', page: 1, pageSize: 10 })).toBe(
      '/api/user/search?p=1&page_size=10&keyword=a%26b&group=vip',
    );
  });
});
