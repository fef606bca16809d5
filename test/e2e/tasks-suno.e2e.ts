import request from 'supertest';
import { Task } from '../../server/src/database/entities';
import { ContentLogService } from '../../server/src/modules/log/content/content-log.service';
import { TaskPoller } from '../../server/src/modules/task/task-poller.service';
import { MockSuno } from '../mocks/suno';
import {
  logsOf,
  makeChannel,
  makeToken,
  quotaOf,
  setQuota,
  settle,
  updateChannel,
} from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

// The poller of this suite's server runs every 200 ms; tasks time out after 10 minutes.
const TASK_ENV = { TASK_POLL_INTERVAL: '0.2', TASK_TIMEOUT: '600' };

const MUSIC = 50_000; // suno_music 0.1 USD × 500000
const LYRICS = 5_000; // suno_lyrics 0.01 USD

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Suno relay', () => {
  let t: TestApp;
  let mock: MockSuno;
  let root: ApiClient;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  let aliceKey: string;
  let bobKey: string;
  let channelId: number;

  const submit = (key: string, action: string, body: unknown) =>
    request(t.url)
      .post(`/suno/submit/${action}`)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
  const fetchOne = (key: string, id: string) =>
    request(t.url).get(`/suno/fetch/${id}`).set('Authorization', `Bearer ${key}`);
  const fetchMany = (key: string, body: unknown) =>
    request(t.url)
      .post('/suno/fetch')
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
  const row = (taskId: string) => t.ds.getRepository(Task).findOneOrFail({ where: { task_id: taskId } });
  const finished = (taskId: string) =>
    waitFor(`task ${taskId} to finish`, async () => {
      const r = await row(taskId);
      return ['SUCCESS', 'FAILURE'].includes(r.status) ? r : null;
    });

  beforeAll(async () => {
    mock = await MockSuno.start();
    t = await startApp(TASK_ENV);
    root = await setupRoot(t);
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    await setQuota(t, alice.userId!, 1_000_000);
    await setQuota(t, bob.userId!, 1_000_000);
    channelId = await makeChannel(t, {
      type: 36,
      name: 'suno',
      base_url: mock.url,
      key: mock.key,
      models: 'suno_music,suno_lyrics',
    });
    aliceKey = (await makeToken(t, alice.userId!)).key;
    bobKey = (await makeToken(t, bob.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('submits music, holds the price, polls it to SUCCESS with its songs; billed once, exactly', async () => {
    const before = await quotaOf(t, alice.userId!);
    const res = await submit(aliceKey, 'music', {
      prompt: '[Verse] sailing away',
      title: 'Sea',
      tags: 'folk',
      make_instrumental: false,
      unknown: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'success', message: '' });
    const id: string = res.body.data;
    expect(typeof id).toBe('string');
    const sent = mock.last()!;
    expect(sent.path).toBe('/suno/submit/music');
    expect(sent.headers.authorization).toBe(`Bearer ${mock.key}`);
    expect(sent.body).toEqual({
      prompt: '[Verse] sailing away',
      title: 'Sea',
      tags: 'folk',
      make_instrumental: false,
      mv: 'chirp-v3-0',
    });
    expect(await quotaOf(t, alice.userId!)).toBe(before - MUSIC);
    const pending = await row(id);
    expect(pending).toMatchObject({
      platform: 'suno',
      action: 'MUSIC',
      status: 'SUBMITTED',
      progress: '0%',
      channel_id: channelId,
      user_id: alice.userId,
    });

    const done = await finished(id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(Number(done.quota)).toBe(MUSIC);
    expect(Number(done.finish_time)).toBeGreaterThan(0);
    const one = await fetchOne(aliceKey, id);
    expect(one.status).toBe(200);
    expect(one.body.code).toBe('success');
    expect(one.body.data).toMatchObject({
      task_id: id,
      action: 'MUSIC',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
    });
    expect(one.body.data.data[0]).toMatchObject({ status: 'complete', title: 'Sea' });
    expect(one.body.data.data[0].audio_url).toMatch(/\.mp3$/);
    expect(one.body.data.submit_time).toBeLessThan(1e11);

    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - MUSIC);
    const log = (await logsOf(t, alice.userId!)).at(-1)!;
    expect(log).toMatchObject({
      type: 2,
      quota: MUSIC,
      model_name: 'suno_music',
      channel_id: channelId,
      content: `suno MUSIC ${id}`,
    });
  });

  it('lyrics are billed as suno_lyrics; fetch by many ids answers the caller’s own tasks', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const res = await submit(aliceKey, 'lyrics', { prompt: 'a song about the sea' });
    expect(res.body.code).toBe('success');
    const done = await finished(res.body.data);
    expect(done).toMatchObject({ action: 'LYRICS', status: 'SUCCESS' });
    const many = await fetchMany(aliceKey, { ids: [res.body.data, 'nope'] });
    expect(many.body.code).toBe('success');
    expect(many.body.data).toHaveLength(1);
    expect(many.body.data[0].data).toMatchObject({ title: 'A song about the sea' });
    expect((await fetchMany(aliceKey, { ids: [res.body.data], action: 'MUSIC' })).body.data).toEqual([]);
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - LYRICS);
  });

  it('with LogConsumeEnabled off the charge is the same, without a consume log; a failure still leaves an error log', async () => {
    await putOption(root, 'LogConsumeEnabled', false);
    try {
      await settle(t);
      const before = await quotaOf(t, alice.userId!);
      const logs = (await logsOf(t, alice.userId!)).length;
      const ok = await submit(aliceKey, 'lyrics', { prompt: 'quiet song' });
      await finished(ok.body.data);
      await settle(t);
      expect(await quotaOf(t, alice.userId!)).toBe(before - LYRICS);
      expect((await logsOf(t, alice.userId!)).length).toBe(logs);
      const bad = await submit(aliceKey, 'lyrics', { prompt: 'quiet failure [[fail]]' });
      await finished(bad.body.data);
      await settle(t);
      expect(await quotaOf(t, alice.userId!)).toBe(before - LYRICS);
      const after = await logsOf(t, alice.userId!);
      expect(after.length).toBe(logs + 1);
      expect(after.at(-1)).toMatchObject({ type: 5, quota: 0, model_name: 'suno_lyrics' });
    } finally {
      await putOption(root, 'LogConsumeEnabled', true);
    }
  });

  it('a channel switched to content logs stores each submission: the request and the upstream’s answer or error', async () => {
    await updateChannel(t, channelId, { setting: JSON.stringify({ content_log: true }) });
    try {
      await settle(t);
      const logsBefore = (await logsOf(t, bob.userId!)).length;
      const ok = await submit(bobKey, 'lyrics', { prompt: 'a stored song' });
      expect(ok.body).toMatchObject({ code: 'success' });
      await finished(ok.body.data);
      const boom = await submit(bobKey, 'lyrics', { prompt: 'stored boom [[status=503]]' });
      expect(boom.status).toBeGreaterThanOrEqual(500);
      await waitFor('both logs', async () => {
        await settle(t);
        const logs = (await logsOf(t, bob.userId!)).slice(logsBefore);
        return logs.length === 2 && logs.every((l) => l.other.task_id !== undefined) ? true : null;
      });
      await t.app.get(ContentLogService).flush();
      const rows: Array<Record<string, unknown>> = await t.ds.query(
        `SELECT * FROM log_contents WHERE user_id = ${bob.userId!} ORDER BY id`,
      );
      expect(rows).toHaveLength(2);
      expect(JSON.parse(String(rows[0].request))).toEqual({ prompt: 'a stored song' });
      expect(JSON.parse(String(rows[0].response))).toMatchObject({ code: 'success', data: ok.body.data });
      expect(JSON.parse(String(rows[0].meta))).toMatchObject({
        mode: 'suno',
        path: '/suno/submit/lyrics',
        status: 200,
        channel_id: channelId,
      });
      expect(JSON.parse(String(rows[1].request))).toEqual({ prompt: 'stored boom [[status=503]]' });
      expect(JSON.parse(String(rows[1].response))).toMatchObject({ error: { message: expect.any(String) } });
      expect(String(rows[1].response)).not.toContain(mock.key);
      expect(JSON.parse(String(rows[1].meta))).toMatchObject({ mode: 'suno', status: boom.status });
      // Both log rows (the task's consume log, the refusal's error log) are marked.
      const logs = (await logsOf(t, bob.userId!)).slice(logsBefore);
      expect(logs.map((l) => [l.type, l.other.content_logged])).toEqual([
        [2, true],
        [5, true],
      ]);
      expect(logs.map((l) => l.request_id)).toEqual(rows.map((r) => r.request_id));
    } finally {
      await updateChannel(t, channelId, { setting: '{}' });
    }
  });

  it('a task that fails upstream is refunded exactly', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const res = await submit(aliceKey, 'music', { gpt_description_prompt: 'angry song [[fail]]' });
    expect(res.body.code).toBe('success');
    expect(await quotaOf(t, alice.userId!)).toBe(before - MUSIC);
    const done = await finished(res.body.data);
    expect(done).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      fail_reason: 'Unable to generate: lyrics flagged by moderation',
    });
    expect(Number(done.quota)).toBe(0);
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    const log = (await logsOf(t, alice.userId!)).at(-1)!;
    expect(log).toMatchObject({ type: 5, quota: 0, model_name: 'suno_music' });
  });

  it('an upstream refusal or failure is an error in the Suno format and costs nothing', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const count = await t.ds.getRepository(Task).count();
    const rejected = await submit(aliceKey, 'music', { prompt: 'nope [[reject]]' });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({ code: 'fail', data: null });
    expect(rejected.body.message).toContain('prompt rejected by content policy');
    const boom = await submit(aliceKey, 'lyrics', { prompt: 'boom [[status=503]]' });
    expect(boom.status).toBe(502);
    expect(boom.body).toMatchObject({ code: 'upstream_error', data: null });
    await updateChannel(t, channelId, { key: 'wrong-key' });
    const denied = await submit(aliceKey, 'lyrics', { prompt: 'denied' });
    expect(denied.status).toBe(502);
    expect(JSON.stringify(denied.body)).not.toContain('wrong-key');
    await updateChannel(t, channelId, { key: mock.key });
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    expect(await t.ds.getRepository(Task).count()).toBe(count);
  });

  it('a task belongs to its submitter', async () => {
    const id: string = (await submit(aliceKey, 'lyrics', { prompt: 'private' })).body.data;
    expect((await fetchOne(aliceKey, id)).status).toBe(200);
    const other = await fetchOne(bobKey, id);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: 'task_not_exist', data: null });
    expect((await fetchMany(bobKey, { ids: [id] })).body.data).toEqual([]);
    // Continuing someone else's clip is refused before anything is charged.
    await settle(t);
    const bobBefore = await quotaOf(t, bob.userId!);
    const cont = await submit(bobKey, 'music', {
      prompt: 'more',
      task_id: id,
      continue_clip_id: 'clip-1',
      continue_at: 30,
    });
    expect(cont.status).toBe(404);
    await settle(t);
    expect(await quotaOf(t, bob.userId!)).toBe(bobBefore);
  });

  it('a continuation goes to the original task’s channel', async () => {
    const first: string = (await submit(aliceKey, 'music', { prompt: 'part one' })).body.data;
    await finished(first);
    const cont = await submit(aliceKey, 'music', {
      prompt: 'part two',
      task_id: first,
      continue_clip_id: 'clip-1',
      continue_at: 60.5,
    });
    expect(cont.body.code).toBe('success');
    expect(mock.last()!.body).toMatchObject({
      task_id: first,
      continue_clip_id: 'clip-1',
      continue_at: 60.5,
    });
    expect((await row(cont.body.data)).channel_id).toBe(channelId);
  });

  it('a stale task fails with a timeout and is refunded', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const id: string = (await submit(aliceKey, 'music', { prompt: 'endless [[hang]]' })).body.data;
    await waitFor('in progress', async () => (await row(id)).status === 'IN_PROGRESS');
    await t.ds
      .getRepository(Task)
      .update({ task_id: id }, { submit_time: Math.floor(Date.now() / 1000) - 11 * 60 });
    await t.app.get(TaskPoller).pollOnce();
    const done = await row(id);
    expect(done).toMatchObject({ status: 'FAILURE', progress: '100%' });
    expect(done.fail_reason).toContain('timed out');
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
  });

  it('refuses bad input in the Suno format, changing nothing', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const count = await t.ds.getRepository(Task).count();
    expect((await request(t.url).post('/suno/submit/music').send({ prompt: 'x' })).status).toBe(401);
    const cases: Array<[string, unknown]> = [
      ['music', {}],
      ['music', { prompt: '   ' }],
      ['music', { prompt: 5 }],
      ['music', { prompt: 'x', make_instrumental: 'yes' }],
      ['music', { prompt: 'x', continue_at: -1 }],
      ['music', { prompt: 'x', continue_clip_id: 'c' }],
      ['music', { prompt: 'x\u0000y' }],
      ['music', { prompt: 'x'.repeat(10_001) }],
      ['lyrics', { gpt_description_prompt: 'only a description' }],
    ];
    for (const [action, body] of cases) {
      const res = await submit(aliceKey, action, body);
      expect([action, JSON.stringify(body).slice(0, 40), res.status]).toEqual([
        action,
        JSON.stringify(body).slice(0, 40),
        400,
      ]);
      expect(res.body).toMatchObject({ code: 'invalid_request', data: null });
    }
    for (const raw of ['{"prompt":', '[]', '', '{"prompt":"x","continue_at":1e400}']) {
      const res = await request(t.url)
        .post('/suno/submit/lyrics')
        .set('Authorization', `Bearer ${aliceKey}`)
        .set('content-type', 'application/json')
        .send(raw);
      expect(res.status).toBe(400);
    }
    expect((await submit(aliceKey, 'video', { prompt: 'x' })).status).toBe(404);
    expect((await fetchMany(aliceKey, { ids: 'abc' })).status).toBe(400);
    expect(
      (await fetchMany(aliceKey, { ids: Array.from({ length: 501 }, (_, i) => `id-${i}`) })).status,
    ).toBe(400);
    expect((await fetchOne(aliceKey, 'x'.repeat(99))).status).toBe(404);
    expect((await fetchOne(aliceKey, 'x'.repeat(300))).status).toBe(414);

    await putOption(root, 'TaskEnabled', false);
    const off = await request(t.url)
      .post('/suno/submit/lyrics')
      .set('Authorization', `Bearer ${aliceKey}`)
      .set('Accept-Language', 'en')
      .send({ prompt: 'x' });
    expect(off.status).toBe(403);
    expect(off.body.message).toBe('Async tasks are disabled by the administrator');
    await putOption(root, 'TaskEnabled', true);

    const poor = await makeUser(t, root);
    const poorKey = (await makeToken(t, poor.userId!)).key;
    const broke = await submit(poorKey, 'music', { prompt: 'x' });
    expect(broke.status).toBe(403);
    expect(broke.body.code).toBe('insufficient_quota');

    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    expect(await t.ds.getRepository(Task).count()).toBe(count);
  });

  it('task log: admins see every task with its channel and filters; users only their own, in seconds', async () => {
    const bobTask: string = (await submit(bobKey, 'lyrics', { prompt: 'bob writes' })).body.data;
    await finished(bobTask);
    const all = await root.get('/api/task/?p=1&page_size=100');
    expect(all.body.success).toBe(true);
    const items = all.body.data.items as Array<Record<string, unknown>>;
    expect(all.body.data.total).toBe(items.length);
    expect(items.some((i) => i.user_id === alice.userId)).toBe(true);
    const bobRow = items.find((i) => i.task_id === bobTask)!;
    expect(bobRow).toMatchObject({
      channel_id: channelId,
      user_id: bob.userId,
      platform: 'suno',
      action: 'LYRICS',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
    });
    for (const k of ['id', 'created_at', 'submit_time', 'finish_time', 'data'])
      expect(bobRow).toHaveProperty(k);
    expect(bobRow.submit_time as number).toBeLessThan(1e11);

    const submitted = bobRow.submit_time as number;
    expect((await root.get(`/api/task/?task_id=${bobTask}`)).body.data.total).toBe(1);
    expect(
      (
        await root.get(
          `/api/task/?task_id=${bobTask}&start_timestamp=${submitted}&end_timestamp=${submitted}`,
        )
      ).body.data.total,
    ).toBe(1);
    expect(
      (await root.get(`/api/task/?task_id=${bobTask}&end_timestamp=${submitted - 1}`)).body.data.total,
    ).toBe(0);
    expect(
      (
        await root.get(`/api/task/?channel_id=${channelId}&action=LYRICS&platform=suno&page_size=100`)
      ).body.data.items.every((i: { action: string }) => i.action === 'LYRICS'),
    ).toBe(true);
    expect((await root.get(`/api/task/?platform=midjourney`)).body.data.total).toBe(0);
    expect((await root.get(`/api/task/?channel_id=${channelId + 999}`)).body.data.total).toBe(0);
    const failed = await root.get('/api/task/?status=FAILURE&page_size=100');
    expect(failed.body.data.total).toBeGreaterThanOrEqual(2);

    const own = await bob.get(`/api/task/self?page_size=100&channel_id=${channelId + 999}`);
    expect(own.body.success).toBe(true);
    expect(own.body.data.items.map((i: { task_id: string }) => i.task_id)).toContain(bobTask);
    for (const item of own.body.data.items) {
      expect(item).not.toHaveProperty('channel_id');
      expect(item).not.toHaveProperty('user_id');
    }
    const aliceOwn = (await alice.get('/api/task/self?page_size=100')).body.data.items.map(
      (i: { task_id: string }) => i.task_id,
    );
    expect(aliceOwn).not.toContain(bobTask);
    expect((await bob.get('/api/task/')).status).toBe(403);
    expect((await request(t.url).get('/api/task/self')).status).toBe(401);
    const p0 = await alice.get('/api/task/self?p=0&page_size=1');
    expect(p0.body.data).toMatchObject({ page: 1, page_size: 1 });
    for (const q of ['start_timestamp=-5', 'end_timestamp=9999999999999', 'task_id=a%0Ab', 'channel_id=x']) {
      const bad = await root.get(`/api/task/?${q}`);
      expect([q, bad.status, bad.body.success]).toEqual([q, 200, false]);
    }
  });
});
