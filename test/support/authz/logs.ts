/** Authorization matrix rows of the logs area's routes (see route.ts). */
import { LogEntry } from '../../../server/src/database/entities';
import type { TestApp } from '../test-app';
import { type Route, r } from './route';

/** Logs written before this instant are what the DELETE row clears. */
const OLD = 100;
/** The app of the matrix, known from the first allowed DELETE (prepare only gets the root client). */
let app: TestApp | null = null;
/** The user the content-log switch row turns on (known from the row's body). */
let contentVictim = 0;

const oldLogs = (t: TestApp) =>
  t.ds.getRepository(LogEntry).createQueryBuilder('l').where('l.created_at < :old', { old: OLD }).getCount();

export const LOGS_ROUTES: Route[] = [
  r('get', '/api/log', 'admin', { query: '?p=1&page_size=5&type=2&model_name=gpt' }),
  r('get', '/api/log/stat', 'admin', { query: '?type=2' }),
  r('get', '/api/log/self', 'user', { query: '?p=0&page_size=1000' }),
  r('get', '/api/log/self/stat', 'user'),
  r('get', '/api/log/export', 'admin', { query: '?format=jsonl&type=2', contentType: /x-ndjson/ }),
  r('get', '/api/log/self/export', 'user', { contentType: /text\/csv/ }),
  r('get', '/api/report', 'admin', { query: '?period=week&group_by=channel' }),
  r('get', '/api/report/self', 'user', { query: '?period=month&group_by=model' }),
  r('get', '/api/report/export', 'admin', { query: '?group_by=user', contentType: /text\/csv/ }),
  r('get', '/api/report/self/export', 'user', { contentType: /text\/csv/ }),
  r('delete', '/api/log', 'admin', {
    query: `?target_timestamp=${OLD}`,
    // From the second allowed call on there is an old log to delete, so a refused call is seen to
    // leave it and an allowed one to remove it.
    prepare: async () => {
      if (app)
        await app.ds
          .getRepository(LogEntry)
          .insert({ user_id: 0, created_at: OLD - 1, type: 4, content: 'old' });
    },
    effect: async (t) => {
      app = t;
      expect(await oldLogs(t)).toBe(0);
    },
  }),
  // Public: a bad key is a business failure (200, success false), never a sign-in redirect.
  r('get', '/api/log/token', 'public', { query: '?key=sk-not-a-real-key-0123456789' }),
  // Content logs: with ContentLogUserViewEnabled off (the default) only admins read a row's content.
  r('get', '/api/log/{id}/content', 'admin'),
  r('get', '/api/content_log/user/{id}', 'admin'),
  r('get', '/api/content_log/token/{id}', 'admin'),
  r('put', '/api/content_log/token/{id}', 'admin', { body: () => ({ enabled: false }) }),
  r('put', '/api/content_log/user/{id}', 'admin', {
    body: (c) => {
      contentVictim = c.victimId;
      return { enabled: true };
    },
    effect: async (t) => {
      const rows: Array<{ content_log: unknown }> = await t.ds.query(
        `SELECT content_log FROM users WHERE id = ${Math.floor(contentVictim)}`,
      );
      expect([true, 1, '1']).toContain(rows[0].content_log);
    },
  }),
  r('get', '/api/user/{id}/summary', 'admin'),
  r('get', '/api/pricing', 'public', { noMessage: true }),
  r('get', '/api/data', 'admin', { query: '?default_time=day' }),
  r('get', '/api/data/self', 'user'),
  r('get', '/api/data/users', 'admin', { query: '?default_time=day' }),
  // Budgets: each caller's own usage; another user's and the groups' usage for admins.
  r('get', '/api/budget/self', 'user'),
  r('get', '/api/budget/token', 'user', { query: '?ids=1,2' }),
  r('get', '/api/budget/user/{id}', 'admin'),
  r('get', '/api/budget/group', 'admin'),
];
