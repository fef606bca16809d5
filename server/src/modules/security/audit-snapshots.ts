import { DataSource } from 'typeorm';
import { Channel, Redemption, Token, TopUp, User } from '../../database/entities';
import { OPTION_INDEX } from '../option';
import type { OptionService } from '../option';

/** What kind of object an audited action changes. */
export type AuditTarget =
  'user' | 'token' | 'channel' | 'option' | 'redemption' | 'topup' | 'log' | 'two_factor';

/** A field's value before and after; secret fields only say that they changed. */
export type FieldChange = { from: unknown; to: unknown } | { secret: true };
export type Changes = Record<string, FieldChange>;

export interface Snapshot {
  name: string;
  fields: Record<string, unknown>;
  /** Fields whose values never leave the server: compared, never written. */
  secret: string[];
}

/**
 * Fields that move by themselves (traffic, health checks), or follow another recorded field (a new
 * password ends older sessions), not by an administrator's edit.
 */
const VOLATILE: Record<string, string[]> = {
  user: [
    'used_quota',
    'request_count',
    'created_at',
    'aff_count',
    'aff_quota',
    'aff_history_quota',
    'sessions_valid_after',
  ],
  token: ['used_quota', 'remain_quota', 'accessed_time', 'created_time'],
  channel: ['used_quota', 'balance', 'balance_updated_time', 'test_time', 'response_time', 'created_time'],
  redemption: ['created_time'],
  topup: [],
};
const SECRET: Record<string, string[]> = {
  user: ['password', 'access_token_hash', 'setting'],
  token: ['key_hash', 'key_enc'],
  channel: ['key'],
  redemption: ['key'],
  topup: [],
};

function pick(kind: string, row: object | null, name: string): Snapshot | null {
  if (!row) return null;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!VOLATILE[kind].includes(k)) fields[k] = v;
  return { name, fields, secret: SECRET[kind] };
}

/** Whether a token's or user's calls store their content (a column the entities do not map). */
async function contentLogOf(ds: DataSource, table: 'tokens' | 'users', id: number): Promise<boolean> {
  const rows = await ds.query<Array<{ content_log: unknown }>>(
    `SELECT content_log FROM ${table} WHERE id = ${Math.floor(id)}`,
  );
  const v = rows[0]?.content_log;
  return v === true || v === 1 || v === '1' || v === 't';
}

/** Reads the current state of one audited object (null when it does not exist). */
export async function snapshot(
  ds: DataSource,
  options: OptionService,
  target: AuditTarget,
  id: string,
): Promise<Snapshot | null> {
  const num = Number(id);
  const numeric = /^\d{1,10}$/.test(id);
  switch (target) {
    case 'user': {
      // A creation that answers nothing is found by the name it was given.
      const u = numeric
        ? await ds.getRepository(User).findOneBy({ id: num })
        : id.startsWith('name:')
          ? await ds.getRepository(User).findOneBy({ username: id.slice(5) })
          : null;
      const snap = pick('user', u, u?.username ?? '');
      if (snap && u) snap.fields.content_log = await contentLogOf(ds, 'users', u.id);
      return snap;
    }
    case 'token': {
      const t = numeric ? await ds.getRepository(Token).findOneBy({ id: num }) : null;
      const snap = pick('token', t && t.deleted_at === null ? t : null, t?.name ?? '');
      if (snap && t) snap.fields.content_log = await contentLogOf(ds, 'tokens', t.id);
      return snap;
    }
    case 'channel': {
      const c = numeric ? await ds.getRepository(Channel).findOneBy({ id: num }) : null;
      return pick('channel', c, c?.name ?? '');
    }
    case 'redemption': {
      const r = numeric ? await ds.getRepository(Redemption).findOneBy({ id: num }) : null;
      return pick('redemption', r && r.deleted_at === null ? r : null, r?.name ?? '');
    }
    case 'topup': {
      const t = await ds.getRepository(TopUp).findOneBy({ trade_no: id });
      return pick('topup', t, id);
    }
    case 'option': {
      const def = OPTION_INDEX.get(id);
      if (!def) return null;
      return { name: id, fields: { value: options.get(def.key) }, secret: def.secret ? ['value'] : [] };
    }
    default:
      return null;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields that differ; secret ones without their values. Empty when nothing changed. */
export function diff(before: Snapshot | null, after: Snapshot | null): Changes {
  const changes: Changes = {};
  const keys = new Set([...Object.keys(before?.fields ?? {}), ...Object.keys(after?.fields ?? {})]);
  const secret = new Set([...(before?.secret ?? []), ...(after?.secret ?? [])]);
  for (const k of keys) {
    const from = before ? before.fields[k] : undefined;
    const to = after ? after.fields[k] : undefined;
    if (same(from, to)) continue;
    // A creation lists the fields it set; empty defaults say nothing.
    if (!before && (to === null || to === '' || to === 0 || to === false)) continue;
    changes[k] = secret.has(k) ? { secret: true } : { from: from ?? null, to: to ?? null };
  }
  return changes;
}
