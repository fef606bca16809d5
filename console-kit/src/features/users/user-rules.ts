import { UserRole } from '../../api/api-types';
import type { AdminUser, ManageAction } from './users-api';

/** Spec: default page size 10; options 10, 20, 50, 100; the choice is kept locally as `page-size`. */
export {
  LIST_PAGE_SIZES as PAGE_SIZE_OPTIONS,
  DEFAULT_LIST_PAGE_SIZE as DEFAULT_PAGE_SIZE,
  LIST_PAGE_SIZE_KEY as PAGE_SIZE_STORAGE_KEY,
  listPageSize as parsePageSize,
} from '../../components/page-size';

export const UserStatus = { enabled: 1, disabled: 2 } as const;

export type RoleName = 'user' | 'admin' | 'root' | 'unknown';
export type StatusName = 'enabled' | 'disabled' | 'unknown';

export function roleName(role: number): RoleName {
  switch (role) {
    case UserRole.user:
      return 'user';
    case UserRole.admin:
      return 'admin';
    case UserRole.root:
      return 'root';
    default:
      return 'unknown';
  }
}

export function statusName(status: number): StatusName {
  switch (status) {
    case UserStatus.enabled:
      return 'enabled';
    case UserStatus.disabled:
      return 'disabled';
    default:
      return 'unknown';
  }
}

export const isDeregistered = (user: Pick<AdminUser, 'DeletedAt'>): boolean => Boolean(user.DeletedAt);

/** The server's rule: nobody acts on a user of the same or a higher role, except root. */
export function canActOn(actorRole: number, target: Pick<AdminUser, 'role'>): boolean {
  return actorRole >= UserRole.root || target.role < actorRole;
}

/** What an actor is offered on a row; the server decides in the end and its refusal is shown. */
export interface RowActions {
  edit: boolean;
  promote: boolean;
  demote: boolean;
  enable: boolean;
  /** The enable button is shown but disabled (spec: status 3). */
  enableDisabled: boolean;
  disable: boolean;
  delete: boolean;
}

const NONE: RowActions = {
  edit: false,
  promote: false,
  demote: false,
  enable: false,
  enableDisabled: false,
  disable: false,
  delete: false,
};

export function rowActions(actorRole: number, target: AdminUser): RowActions {
  if (isDeregistered(target) || !canActOn(actorRole, target)) {
    return NONE;
  }
  const targetIsRoot = target.role >= UserRole.root;
  const enabled = target.status === UserStatus.enabled;
  return {
    edit: true,
    // Only root promotes; root itself cannot be demoted, disabled or deleted.
    promote: actorRole >= UserRole.root && target.role < UserRole.admin,
    demote: target.role >= UserRole.admin && !targetIsRoot,
    enable: !enabled,
    enableDisabled: !enabled && target.status === 3,
    disable: enabled && !targetIsRoot,
    delete: !targetIsRoot,
  };
}

/** Actions that ask first (spec: promote and demote; deleting an account is irreversible, so it asks too). */
export const CONFIRMED_ACTIONS: ReadonlySet<ManageAction> = new Set(['promote', 'demote', 'delete']);

/**
 * The add-quota dialog's arithmetic, exactly as the server does it: the amount may be negative, and a
 * result below zero is refused (the dialog says so before sending), never clamped.
 */
export function quotaAfterDelta(current: number, delta: number): number {
  return current + delta;
}

/** Parses the add-quota amount: a whole number, negative allowed, not zero. */
export function parseQuotaDelta(text: string): number | null {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) {
    return null;
  }
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value !== 0 ? value : null;
}

/** Parses a quota balance field: a whole number ≥ 0. */
export function parseQuota(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) {
    return null;
  }
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}
