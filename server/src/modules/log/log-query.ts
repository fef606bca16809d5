import type { SelectQueryBuilder } from 'typeorm';
import { escapeLike, LIKE_ESCAPE } from '../../common/pagination';
import { queryReader } from '../../common/query-params';

import type { UnknownObject as Raw } from '../../common/json';

/** The largest timestamp accepted (9999-12-31T23:59:59Z, in seconds): a milliseconds value is refused. */
export const MAX_TIMESTAMP = 253_402_300_799;
/** Text filters longer than the widest column they are compared with match nothing: refuse them. */
const MAX_TEXT = 191;

/** The filters of the usage-log screens (docs/decisions.md#usage-log-filters). Zero / empty = not filtered. */
export interface LogFilter {
  /** 0 = every type. */
  type: number;
  start: number;
  end: number;
  /** Exact user name (admins only). */
  username: string;
  /** Exact token name. */
  tokenName: string;
  /** Part of the model name, matched literally. */
  modelName: string;
  /** Channel id (admins only). */
  channel: number;
  /** Exact group. */
  group: string;
  /** Exact request id (the X-Oneapi-Request-Id header of a relay answer). */
  requestId: string;
}

const reader = queryReader('log_param_invalid');

/** One query parameter as text: absent → '', repeated (an array) or an object → refused. */
export const text = (query: Raw, field: string, max = MAX_TEXT): string => reader.text(query, field, max);

/** A non-negative integer parameter, absent or empty → 0. */
export const integer = reader.integer;

export const timestamp = (query: Raw, field: string) => integer(query, field, MAX_TIMESTAMP);

/** The filters of a log query. `admin` adds the user name and channel filters (ignored for others). */
export function parseLogFilter(query: Raw, admin: boolean): LogFilter {
  return {
    type: integer(query, 'type', 255),
    start: timestamp(query, 'start_timestamp'),
    end: timestamp(query, 'end_timestamp'),
    username: admin ? text(query, 'username', 64) : '',
    tokenName: text(query, 'token_name', 64),
    modelName: text(query, 'model_name'),
    channel: admin ? integer(query, 'channel', 2_147_483_647) : 0,
    group: text(query, 'group', 64),
    requestId: text(query, 'request_id', 64),
  };
}

export interface ApplyOptions {
  /** Leave out the type filter (the stat endpoints count consumption only). */
  withType?: boolean;
  /** Leave out the time range (rpm / tpm are over the last minute whatever the range). */
  withTime?: boolean;
}

/** Adds the filter's conditions to a query over `logs` aliased `l`. Every value is a bound parameter. */
export function applyLogFilter<T extends object>(
  qb: SelectQueryBuilder<T>,
  f: LogFilter,
  opts: ApplyOptions = {},
): SelectQueryBuilder<T> {
  const { withType = true, withTime = true } = opts;
  if (withType && f.type) qb.andWhere('l.type = :fType', { fType: f.type });
  if (withTime && f.start) qb.andWhere('l.created_at >= :fStart', { fStart: f.start });
  if (withTime && f.end) qb.andWhere('l.created_at <= :fEnd', { fEnd: f.end });
  if (f.username) qb.andWhere('l.username = :fUser', { fUser: f.username });
  if (f.tokenName) qb.andWhere('l.token_name = :fToken', { fToken: f.tokenName });
  if (f.modelName)
    qb.andWhere(`l.model_name LIKE :fModel ${LIKE_ESCAPE}`, { fModel: `%${escapeLike(f.modelName)}%` });
  if (f.channel) qb.andWhere('l.channel_id = :fChannel', { fChannel: f.channel });
  if (f.group) qb.andWhere('l.group = :fGroup', { fGroup: f.group });
  if (f.requestId) qb.andWhere('l.request_id = :fReq', { fReq: f.requestId });
  return qb;
}
