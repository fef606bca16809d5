/** True when a write failed on a unique index or primary key, on any of the three databases. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } } | null;
  const codes = [err?.code, err?.driverError?.code];
  const errnos = [err?.errno, err?.driverError?.errno];
  return (
    codes.some(
      (c) =>
        c === 'ER_DUP_ENTRY' ||
        c === '23505' ||
        c === 'SQLITE_CONSTRAINT_UNIQUE' ||
        c === 'SQLITE_CONSTRAINT_PRIMARYKEY',
    ) || errnos.includes(1062)
  );
}

/** Which unique index a violation hit, when the driver says (used to tell username from email clashes). */
export function violatedColumn(e: unknown): string {
  const msg =
    String((e as { message?: string })?.message ?? '') + String((e as { detail?: string })?.detail ?? '');
  const m = /idx_users_(\w+)|users\.(\w+)|\((\w+)\)=/.exec(msg);
  return (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').toLowerCase();
}
