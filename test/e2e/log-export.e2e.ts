/**
 * Usage data out: CSV and JSON Lines exports of a filtered log view (admins: everyone's; users: their
 * own), streamed with flat memory over a large log table, and the usage reports by period ×
 * dimension in the operator's time zone, whose totals equal the sum of the logs.
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { LogEntry } from '../../server/src/database/entities';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/** Rows of the memory test (EXPORT_TEST_ROWS=1000000 for the one-off measurement). */
const BIG = Number(process.env.EXPORT_TEST_ROWS ?? 200_000);
/** The export may grow the process by at most this much while streaming BIG rows (35+ MiB of CSV; held in memory they would take several times that). */
const RSS_BUDGET = 64 * 1024 * 1024;

type Row = Partial<LogEntry>;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
/** The process's resident memory once garbage is collected (V8 grows its heap lazily otherwise). */
const settledRss = () => {
  collect();
  return process.memoryUsage().rss;
};

interface Streamed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: number;
  lines: number;
  /** Resident memory when the answer started, and its peak while it streamed (both after a collection). */
  startRss: number;
  peakRss: number;
}

/** Reads an export through plain HTTP with an access token, keeping the text only when asked. */
function fetchExport(
  t: TestApp,
  who: { userId: number; access: string },
  path: string,
  keep = true,
): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${t.url}${path}`,
      { headers: { Authorization: `Bearer ${who.access}`, 'New-Api-User': String(who.userId) } },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        let lines = 0;
        const startRss = settledRss();
        // The highest sample while streaming (below the start when the export holds less than before).
        let peakRss = 0;
        let sampled = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines += 1;
          if (keep) chunks.push(c);
          // Resident memory after a collection, every 4 MiB received: what the export really holds (a
          // full collection of the test process's heap per sample: more samples only make the run slow).
          if (bytes - sampled >= 4 << 20) {
            sampled = bytes;
            peakRss = Math.max(peakRss, settledRss());
          }
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            bytes,
            lines,
            startRss,
            peakRss: peakRss || settledRss(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** Minimal RFC 4180 reader for the assertions (quoted fields, doubled quotes, embedded newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (ch !== '\r') field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function insertRows(t: TestApp, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000)
    await t.ds
      .getRepository(LogEntry)
      .createQueryBuilder()
      .insert()
      .values(rows.slice(i, i + 1000))
      .updateEntity(false)
      .execute();
}

describe('log export and usage reports', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: { userId: number; access: string };
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let aliceAuth: { userId: number; access: string };
  let bob: Awaited<ReturnType<typeof makeUser>>;

  const access = async (c: ApiClient) => {
    const res = await c.get('/api/user/token');
    expect(res.body.success).toBe(true);
    return { userId: c.userId!, access: String(res.body.data) };
  };

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    const a = await makeUser(t, root, { role: 'admin' });
    admin = await access(a);
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    aliceAuth = await access(alice);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('export', () => {
    const base = 1_700_000_000;
    beforeAll(async () => {
      const rows: Row[] = [];
      for (let i = 0; i < 30; i++) {
        const mine = i % 3 !== 0;
        rows.push({
          user_id: mine ? alice.userId! : bob.userId!,
          username: mine ? alice.username : bob.username,
          created_at: base + Math.floor(i / 2), // pairs share a second: the keyset needs the id too
          type: i % 5 === 0 ? 5 : 2,
          content: i === 4 ? '=HYPERLINK("http://x")' : `line one\nline "two" ${i}`,
          token_id: 7,
          token_name: mine ? 'alice-key' : 'bob-key',
          model_name: i % 2 ? 'exp%mod_1' : 'expXmodY1',
          quota: 1000 + i,
          prompt_tokens: i,
          completion_tokens: 2 * i,
          use_time: 1,
          is_stream: i % 2 === 1,
          channel_id: 0,
          group: 'default',
          ip: '203.0.113.9',
          request_id: `exp-${i}`,
          node_name: 'node-a',
          other: JSON.stringify({ admin_info: { use_channel: [1] }, model_ratio: 1 }),
        });
      }
      await insertRows(t, rows);
    });

    const window = `start_timestamp=${base}&end_timestamp=${base + 100}`;

    it('exports exactly the filtered list, newest first, as CSV with a header', async () => {
      const list = new ApiClient(t.url);
      list.userId = admin.userId;
      list.token = admin.access;
      const q = `${window}&model_name=${encodeURIComponent('exp%mod_1')}&username=${alice.username}`;
      const page = await list.get(`/api/log/?${q}&page_size=100`);
      expect(page.body.success).toBe(true);
      const ids = page.body.data.items.map((x: { id: number }) => String(x.id));
      expect(ids.length).toBe(10); // odd i, alice's only (i % 3 !== 0)

      const res = await fetchExport(t, admin, `/api/log/export?${q}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="logs-\d{8}-\d{6}\.csv"$/);
      expect(res.headers['x-total-count']).toBe('10');
      expect(res.body.charCodeAt(0)).toBe(0xfeff); // BOM: spreadsheets read the text as UTF-8
      const [header, ...data] = parseCsv(res.body.slice(1));
      expect(header).toEqual(
        expect.arrayContaining([
          'id',
          'created_at',
          'username',
          'quota',
          'channel',
          'channel_name',
          'node_name',
        ]),
      );
      expect(data.map((r) => r[header.indexOf('id')])).toEqual(ids);
      const first = page.body.data.items[0];
      const row = data[0];
      expect(row[header.indexOf('content')]).toBe(first.content);
      expect(row[header.indexOf('content')]).toContain('\n'); // embedded newline kept, quoted
      expect(Number(row[header.indexOf('quota')])).toBe(first.quota);
      expect(row[header.indexOf('model_name')]).toBe('exp%mod_1');
    });

    it('exports JSON Lines in the list shape, and a user gets only their own rows', async () => {
      const all = await fetchExport(t, admin, `/api/log/export?format=jsonl&${window}`);
      expect(all.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const items = all.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(items).toHaveLength(30);
      expect(all.headers['x-total-count']).toBe('30');
      expect(items[0]).toHaveProperty('channel_name');
      expect(JSON.parse(String(items[0].other))).toHaveProperty('admin_info');

      // Bob's user name and a channel filter are ignored for a user; only alice's rows come out.
      const own = await fetchExport(
        t,
        aliceAuth,
        `/api/log/self/export?format=jsonl&${window}&username=${bob.username}`,
      );
      const mine = own.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(mine).toHaveLength(20);
      for (const m of mine) {
        expect(m.user_id).toBe(alice.userId);
        expect(m).not.toHaveProperty('channel');
        expect(JSON.parse(String(m.other))).not.toHaveProperty('admin_info');
      }
      // Newest first over rows sharing a second: (created_at, id) descending, no row twice.
      const keys = mine.map((m) => [Number(m.created_at), Number(m.id)]);
      for (let i = 1; i < keys.length; i++)
        expect(
          keys[i][0] < keys[i - 1][0] || (keys[i][0] === keys[i - 1][0] && keys[i][1] < keys[i - 1][1]),
        ).toBe(true);
    });

    it('defuses spreadsheet formulas in CSV text cells', async () => {
      const res = await fetchExport(t, admin, `/api/log/export?${window}&request_id=exp-4`);
      const [header, row] = parseCsv(res.body.slice(1));
      expect(row[header.indexOf('content')]).toBe(`'=HYPERLINK("http://x")`);
    });

    it('refuses users on the admin export, strangers everywhere, and unknown formats', async () => {
      expect((await fetchExport(t, aliceAuth, '/api/log/export')).status).toBe(403);
      const anon = await fetchExport(t, { userId: 0, access: 'nope' }, '/api/log/self/export');
      expect(anon.status).toBe(401);
      const bad = await fetchExport(t, admin, '/api/log/export?format=xlsx');
      expect(JSON.parse(bad.body)).toMatchObject({ success: false });
      expect(JSON.parse(bad.body).message).toContain('format');
    });
  });

  describe('reports', () => {
    // America/New_York: EST (−5) until 2026-03-08 07:00 UTC, then EDT (−4).
    const utc = (s: string) => Date.parse(`${s}Z`) / 1000;
    const seed: Array<[string, 'alice' | 'bob', string, number, number]> = [
      ['2026-03-07T04:59:59', 'alice', 'm-a', 100, 1], // 03-06 23:59:59 EST
      ['2026-03-07T05:00:00', 'alice', 'm-a', 200, 1], // 03-07 00:00 EST
      ['2026-03-08T04:59:59', 'bob', 'm-b', 300, 2], // 03-07 23:59:59 EST
      ['2026-03-08T05:00:00', 'alice', 'm-b', 400, 2], // 03-08 00:00 EST (DST day)
      ['2026-03-09T03:59:59', 'alice', 'm-a', 500, 3], // 03-08 23:59:59 EDT
      ['2026-03-09T04:00:00', 'bob', 'm-a', 600, 3], // 03-09 00:00 EDT (a Monday)
      ['2026-04-01T03:59:59', 'alice', 'm-b', 700, 4], // 03-31 23:59:59 EDT
      ['2026-04-01T04:00:00', 'alice', 'm-b', 800, 4], // 04-01 00:00 EDT
    ];
    const start = utc('2026-03-01T00:00:00');
    const end = utc('2026-04-30T00:00:00');
    const range = `start_timestamp=${start}&end_timestamp=${end}`;
    let user: ApiClient;

    beforeAll(async () => {
      await putOption(root, 'TimeZone', 'America/New_York');
      const rows: Row[] = seed.map(([at, who, model, quota, tokens], i) => ({
        user_id: who === 'alice' ? alice.userId! : bob.userId!,
        username: who === 'alice' ? alice.username : bob.username,
        created_at: utc(at),
        type: 2,
        token_id: who === 'alice' ? 11 : 12,
        token_name: `${who}-key`,
        model_name: model,
        quota,
        prompt_tokens: tokens,
        completion_tokens: tokens,
        channel_id: 0,
        group: who === 'alice' ? 'default' : 'vip',
        request_id: `rep-${i}`,
      }));
      // An error row in the range is not consumption: reports leave it out.
      rows.push({ ...rows[0], type: 5, quota: 9999, request_id: 'rep-err' });
      await insertRows(t, rows);
      user = alice;
    });

    const report = async (c: ApiClient, path: string) => {
      const res = await c.get(path);
      expect(res.body).toMatchObject({ success: true });
      return res.body.data as {
        time_zone: string;
        rows: Array<{
          period: string;
          period_start: number;
          key: number | string;
          name: string;
          quota: number;
          requests: number;
        }>;
        totals: { requests: number; quota: number; prompt_tokens: number; completion_tokens: number };
      };
    };

    it('buckets days, weeks and months in the operator time zone across a DST change', async () => {
      const days = await report(root, `/api/report/?${range}&period=day&group_by=model`);
      expect(days.time_zone).toBe('America/New_York');
      const byDay = (p: string) => days.rows.filter((r) => r.period === p).reduce((s, r) => s + r.quota, 0);
      expect(byDay('2026-03-06')).toBe(100);
      expect(byDay('2026-03-07')).toBe(500);
      expect(byDay('2026-03-08')).toBe(900);
      expect(byDay('2026-03-09')).toBe(600);
      expect(byDay('2026-03-31')).toBe(700);
      expect(byDay('2026-04-01')).toBe(800);
      expect(days.rows.find((r) => r.period === '2026-03-08')!.period_start).toBe(utc('2026-03-08T05:00:00'));
      expect(days.rows.find((r) => r.period === '2026-03-09')!.period_start).toBe(utc('2026-03-09T04:00:00'));

      const weeks = await report(root, `/api/report/?${range}&period=week&group_by=user`);
      const wk = (p: string, id: number) =>
        weeks.rows.find((r) => r.period === p && r.key === id)?.quota ?? 0;
      // Monday 2026-03-02 holds 03-06 … 03-08; Monday 03-09 starts the next week.
      expect(wk('2026-03-02', alice.userId!)).toBe(100 + 200 + 400 + 500);
      expect(wk('2026-03-02', bob.userId!)).toBe(300);
      expect(wk('2026-03-09', bob.userId!)).toBe(600);
      expect(weeks.rows.find((r) => r.key === alice.userId)!.name).toBe(alice.username);

      const months = await report(root, `/api/report/?${range}&period=month&group_by=group`);
      expect(months.rows.map((r) => [r.period, r.key, r.quota])).toEqual([
        ['2026-03', 'default', 100 + 200 + 400 + 500 + 700],
        ['2026-03', 'vip', 300 + 600],
        ['2026-04', 'default', 800],
      ]);
    });

    it('totals equal the sum of the consumption logs for every period and dimension', async () => {
      const sum = async (userId: number | null) => {
        const qb = t.ds
          .getRepository(LogEntry)
          .createQueryBuilder('l')
          .select('COUNT(*)', 'n')
          .addSelect('COALESCE(SUM(l.quota), 0)', 'q')
          .addSelect('COALESCE(SUM(l.prompt_tokens), 0)', 'p')
          .where('l.type = 2 AND l.created_at >= :start AND l.created_at <= :end', { start, end });
        if (userId !== null) qb.andWhere('l.user_id = :u', { u: userId });
        const r = await qb.getRawOne<{ n: string; q: string; p: string }>();
        return { requests: Number(r!.n), quota: Number(r!.q), prompt_tokens: Number(r!.p) };
      };
      const everyone = await sum(null);
      expect(everyone.quota).toBe(3600);
      for (const period of ['day', 'week', 'month'])
        for (const dim of ['user', 'token', 'model', 'channel', 'group']) {
          const r = await report(root, `/api/report/?${range}&period=${period}&group_by=${dim}`);
          expect(r.totals).toMatchObject(everyone);
          expect(r.rows.reduce((s, x) => s + x.quota, 0)).toBe(everyone.quota);
        }
      const own = await report(
        user,
        `/api/report/self?${range}&period=month&group_by=token&username=${bob.username}`,
      );
      expect(own.totals).toMatchObject(await sum(alice.userId));
      expect(own.rows.every((r) => r.key === 11)).toBe(true);
    });

    it('downloads a report as CSV: its rows, then the totals', async () => {
      const json = await report(root, `/api/report/?${range}&period=month&group_by=group`);
      const res = await fetchExport(t, admin, `/api/report/export?${range}&period=month&group_by=group`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/filename="report-month-group-\d{8}\.csv"/);
      const [header, ...lines] = parseCsv(res.body.slice(1));
      expect(header).toEqual([
        'period',
        'period_start',
        'key',
        'name',
        'requests',
        'quota',
        'prompt_tokens',
        'completion_tokens',
      ]);
      expect(lines.map((l) => [l[0], l[2], Number(l[5])])).toEqual([
        ...json.rows.map((r) => [r.period, r.key, r.quota]),
        ['total', '', json.totals.quota],
      ]);
      const own = await fetchExport(
        t,
        aliceAuth,
        `/api/report/self/export?${range}&period=month&group_by=user`,
      );
      const [, ...mine] = parseCsv(own.body.slice(1));
      expect(mine.slice(0, -1).every((l) => Number(l[2]) === alice.userId)).toBe(true);
      expect((await fetchExport(t, aliceAuth, `/api/report/export?${range}`)).status).toBe(403);
    });

    it('refuses the channel dimension to users, bad periods and bad time zones', async () => {
      const ch = await user.get(`/api/report/self?${range}&group_by=channel`);
      expect(ch.body).toMatchObject({ success: false });
      const bad = await root.get(`/api/report/?${range}&period=year`);
      expect(bad.body).toMatchObject({ success: false });
      expect((await user.get('/api/report/')).status).toBe(403);
      const tz = await root.put('/api/option/', { key: 'TimeZone', value: 'Mars/Olympus' });
      expect(tz.body.success).toBe(false);
    });
  });

  it(`streams ${BIG} rows with flat memory`, async () => {
    const user = alice.userId!;
    const at = 1_600_000_000;
    const chunk: Row[] = [];
    for (let i = 0; i < 1000; i++)
      chunk.push({
        user_id: user,
        username: alice.username,
        created_at: 0,
        type: 2,
        content: 'x'.repeat(40),
        token_name: 'bulk',
        model_name: 'bulk-model',
        quota: 1,
        prompt_tokens: 10,
        completion_tokens: 20,
        group: 'default',
        ip: '198.51.100.1',
        request_id: '',
        other: '{"model_ratio":1,"group_ratio":1,"completion_ratio":1}',
      });
    for (let n = 0; n < BIG; n += 1000) {
      const rows = chunk.map((r, i) => ({ ...r, created_at: at + Math.floor((n + i) / 7) }));
      await t.ds
        .getRepository(LogEntry)
        .createQueryBuilder()
        .insert()
        .values(rows)
        .updateEntity(false)
        .execute();
    }
    const q = `start_timestamp=${at}&end_timestamp=${at + Math.ceil(BIG / 7)}`;
    const started = Date.now();
    const res = await fetchExport(t, admin, `/api/log/export?${q}`, false);
    const seconds = (Date.now() - started) / 1000;
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(BIG));
    expect(res.lines).toBe(BIG + 1); // header + one line per row
    const delta = res.peakRss - res.startRss;
    process.stdout.write(
      `export of ${BIG} rows: ${(res.bytes / 1048576).toFixed(1)} MiB in ${seconds.toFixed(1)} s, ` +
        `peak RSS delta ${(delta / 1048576).toFixed(1)} MiB\n`,
    );
    expect(delta).toBeLessThan(RSS_BUDGET);
  }, 600_000);
});
