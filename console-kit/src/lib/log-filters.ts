import dayjs, { type Dayjs } from 'dayjs';

/** The filter form of the usage log; times are unix seconds, 0 = open. */
export interface LogFilters {
  type: number;
  startTimestamp: number;
  endTimestamp: number;
  tokenName: string;
  modelName: string;
  group: string;
  requestId: string;
  /** Admins only (a user's request never carries them). */
  username: string;
  channel: string;
}

/** Spec: the default range starts at today 00:00 and ends one hour ahead. */
export function defaultLogRange(now: Dayjs = dayjs()): { start: Dayjs; end: Dayjs } {
  return { start: now.startOf('day'), end: now.add(1, 'hour') };
}

export function emptyLogFilters(now: Dayjs = dayjs()): LogFilters {
  const range = defaultLogRange(now);
  return {
    type: 0,
    startTimestamp: range.start.unix(),
    endTimestamp: range.end.unix(),
    tokenName: '',
    modelName: '',
    group: '',
    requestId: '',
    username: '',
    channel: '',
  };
}

/**
 * The query string of the list and stat calls. Blank filters are left out; `username` and `channel`
 * only for admins (a user cannot name other users or channels).
 */
export function logQueryParams(
  filters: LogFilters,
  admin: boolean,
  paging?: { page: number; pageSize: number },
): URLSearchParams {
  const params = new URLSearchParams();
  if (paging) {
    params.set('p', String(paging.page));
    params.set('page_size', String(paging.pageSize));
  }
  if (filters.type > 0) {
    params.set('type', String(filters.type));
  }
  if (filters.startTimestamp > 0) {
    params.set('start_timestamp', String(Math.floor(filters.startTimestamp)));
  }
  if (filters.endTimestamp > 0) {
    params.set('end_timestamp', String(Math.floor(filters.endTimestamp)));
  }
  const text: [string, string][] = [
    ['token_name', filters.tokenName],
    ['model_name', filters.modelName],
    ['group', filters.group],
    ['request_id', filters.requestId],
  ];
  if (admin) {
    text.push(['username', filters.username], ['channel', filters.channel]);
  }
  for (const [key, value] of text) {
    const trimmed = value.trim();
    if (trimmed !== '') {
      params.set(key, trimmed);
    }
  }
  return params;
}

/** The channel filter must be a channel id: a whole non-negative number (or blank). */
export function isValidChannelFilter(value: string): boolean {
  return value.trim() === '' || /^\d{1,10}$/.test(value.trim());
}
