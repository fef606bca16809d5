import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Midjourney } from '../../server/src/database/entities';
import { ContentLogService } from '../../server/src/modules/log/content/content-log.service';
import { TaskPoller } from '../../server/src/modules/task/task-poller.service';
import { MJ_PNG, MockMidjourney } from '../mocks/midjourney';
import {
  logsOf,
  makeChannel,
  makeToken,
  quotaOf,
  setQuota,
  settle,
  updateChannel,
} from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

// The poller of this suite's server runs every 200 ms; tasks time out after 10 minutes.
const TASK_ENV = { TASK_POLL_INTERVAL: '0.2', TASK_TIMEOUT: '600' };

const IMAGINE = 50_000; // mj_imagine 0.1 USD × 500000
const UPSCALE = 25_000; // mj_upscale 0.05 USD
const UPLOAD = 25_000; // mj_upload 0.05 USD

interface Row {
  id: number;
  user_id: number;
  channel_id: number;
  code: number;
  action: string;
  mj_id: string;
  status: string;
  progress: string;
  quota: number;
  fail_reason: string;
  image_url: string;
  prompt: string;
  state: string;
  submit_time: number;
  finish_time: number;
}

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

/** A local receiver for the callbacks the gateway forwards to a caller's notifyHook. */
async function receiver(): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('Midjourney-proxy relay', () => {
  let t: TestApp;
  let mock: MockMidjourney;
  let root: ApiClient;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  let aliceKey: string;
  let bobKey: string;
  let channelId: number;

  const submit = (key: string, route: string, body: unknown) =>
    request(t.url)
      .post(`/mj/submit/${route}`)
      .set('mj-api-secret', key)
      .send(body as object);
  const fetchTask = (key: string, id: string) =>
    request(t.url).get(`/mj/task/${id}/fetch`).set('Authorization', `Bearer ${key}`);
  const row = async (mjId: string): Promise<Row> => {
    const r = await t.ds
      .getRepository(Midjourney)
      .findOneOrFail({ where: { mj_id: mjId }, order: { id: 'DESC' } });
    return {
      ...r,
      quota: Number(r.quota),
      submit_time: Number(r.submit_time),
      finish_time: Number(r.finish_time),
    } as unknown as Row;
  };
  const finished = (mjId: string) =>
    waitFor(`task ${mjId} to finish`, async () => {
      const r = await row(mjId);
      return ['SUCCESS', 'FAILURE'].includes(r.status) ? r : null;
    });
  const usage = async (userId: number) => {
    const rows: Array<Record<string, unknown>> = await t.ds.query(
      `SELECT used_quota, request_count FROM users WHERE id = ${userId}`,
    );
    return { used: Number(rows[0].used_quota), requests: Number(rows[0].request_count) };
  };

  beforeAll(async () => {
    mock = await MockMidjourney.start();
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true', ...TASK_ENV });
    root = await setupRoot(t);
    await putOption(root, 'DrawingEnabled', true);
    await putOption(root, 'ServerAddress', t.url);
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    await setQuota(t, alice.userId!, 1_000_000);
    await setQuota(t, bob.userId!, 1_000_000);
    channelId = await makeChannel(t, {
      type: 2,
      name: 'mj-proxy',
      base_url: mock.url,
      key: mock.secret,
      models:
        'mj_imagine,mj_variation,mj_reroll,mj_blend,mj_modal,mj_zoom,mj_shorten,mj_pan,mj_describe,mj_upscale,mj_upload',
    });
    aliceKey = (await makeToken(t, alice.userId!)).key;
    bobKey = (await makeToken(t, bob.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('submits, holds the price, and the poller brings the task to SUCCESS with its image; billed once, exactly', async () => {
    await putOption(root, 'MjForwardUrlEnabled', false);
    const before = await quotaOf(t, alice.userId!);
    const used = await usage(alice.userId!);
    const res = await submit(aliceKey, 'imagine', { prompt: 'a red fox in snow', state: 'my-state-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 1, description: 'Submit success' });
    const id: string = res.body.result;
    expect(mock.last()!.headers['mj-api-secret']).toBe(mock.secret);
    expect(mock.last()!.body).toMatchObject({ prompt: 'a red fox in snow', state: 'my-state-1' });
    expect(mock.last()!.body).not.toHaveProperty('notifyHook');
    // The whole price is taken at submission.
    expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);

    const done = await finished(id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      code: 1,
      action: 'IMAGINE',
      quota: IMAGINE,
      channel_id: channelId,
    });
    expect(done.user_id).toBe(alice.userId);
    const task = (await fetchTask(aliceKey, id)).body;
    expect(task).toMatchObject({
      id,
      action: 'IMAGINE',
      status: 'SUCCESS',
      progress: '100%',
      prompt: 'a red fox in snow',
      state: 'my-state-1',
    });
    expect(task.imageUrl).toBe(`${mock.url}/attachments/${id}.png`);
    expect(task.buttons).toHaveLength(4);
    expect(task.buttons[0]).toMatchObject({ customId: `MJ::JOB::upsample::1::${id}`, label: 'U1' });
    expect(task.submitTime).toBe(done.submit_time);
    expect(task.finishTime).toBeGreaterThan(0);

    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);
    expect(await usage(alice.userId!)).toEqual({ used: used.used + IMAGINE, requests: used.requests + 1 });
    const log = (await logsOf(t, alice.userId!)).at(-1)!;
    expect(log).toMatchObject({
      type: 2,
      quota: IMAGINE,
      model_name: 'mj_imagine',
      channel_id: channelId,
      content: `midjourney IMAGINE ${id}`,
    });
    expect(log.other).toMatchObject({
      model_price: 0.1,
      group_ratio: 1,
      task_id: id,
      action: 'IMAGINE',
      platform: 'midjourney',
    });
    const ch: Array<{ used_quota: string | number }> = await t.ds.query(
      `SELECT used_quota FROM channels WHERE id = ${channelId}`,
    );
    expect(Number(ch[0].used_quota)).toBeGreaterThanOrEqual(IMAGINE);
  });

  it('with MjForwardUrlEnabled serves the image through /mj/image/{id}, images only', async () => {
    await putOption(root, 'MjForwardUrlEnabled', true);
    const id: string = (await submit(aliceKey, 'imagine', { prompt: 'forwarded cat' })).body.result;
    await finished(id);
    const task = (await fetchTask(aliceKey, id)).body;
    expect(task.imageUrl).toBe(`${t.url}/mj/image/${id}`);
    const img = await request(t.url)
      .get(`/mj/image/${id}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(img.body as Buffer, MJ_PNG)).toBe(0);

    // An upstream that answers HTML for the image is not proxied from the gateway's origin.
    const html: string = (await submit(aliceKey, 'imagine', { prompt: 'sneaky [[html]]' })).body.result;
    await finished(html);
    const refused = await request(t.url).get(`/mj/image/${html}`);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 4 });
    expect((await request(t.url).get('/mj/image/000000')).status).toBe(404);

    await putOption(root, 'MjForwardUrlEnabled', false);
    expect((await request(t.url).get(`/mj/image/${id}`)).status).toBe(404);
  });

  it('stores the submission (the request and the upstream’s answer) when the token is switched on', async () => {
    const tok = await makeToken(t, alice.userId!);
    expect((await root.put(`/api/content_log/token/${tok.id}`, { enabled: true })).body).toMatchObject({
      success: true,
    });
    try {
      const res = await submit(tok.key, 'imagine', { prompt: 'a stored owl', state: tok.key });
      expect(res.body.code).toBe(1);
      const plain = await submit(aliceKey, 'imagine', { prompt: 'an unstored owl' });
      expect(plain.body.code).toBe(1);
      await finished(res.body.result);
      await finished(plain.body.result);
      await settle(t);
      await t.app.get(ContentLogService).flush();
      const rows: Array<Record<string, unknown>> = await t.ds.query(
        `SELECT * FROM log_contents WHERE user_id = ${alice.userId!}`,
      );
      expect(rows).toHaveLength(1);
      const request = JSON.parse(String(rows[0].request)) as Record<string, unknown>;
      expect(request).toEqual({ prompt: 'a stored owl', state: '[REDACTED]' });
      const answer = JSON.parse(String(rows[0].response)) as Record<string, unknown>;
      expect(answer).toMatchObject({ code: 1, result: res.body.result });
      expect(JSON.parse(String(rows[0].meta))).toMatchObject({
        mode: 'midjourney',
        path: '/mj/submit/imagine',
        status: 200,
        response_kind: 'json',
        channel_id: channelId,
      });
      // The task's log row is marked; the other token's is not.
      await waitFor('the settled log', async () => {
        await settle(t);
        const logs = (await logsOf(t, alice.userId!)).filter((l) => l.request_id === rows[0].request_id);
        return logs.length === 1 && logs[0].other.task_id ? logs : null;
      });
      const logs = await logsOf(t, alice.userId!);
      const marked = logs.filter((l) => l.other.content_logged === true);
      expect(marked.map((l) => l.request_id)).toEqual([rows[0].request_id]);
      const read = await root.get(`/api/log/${marked[0].id}/content`);
      expect(read.body).toMatchObject({ success: true, data: { request_id: rows[0].request_id } });
    } finally {
      await root.put(`/api/content_log/token/${tok.id}`, { enabled: false });
    }
  });

  it('a task that fails upstream is refunded in full: the balance ends where it started', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const used = await usage(alice.userId!);
    const res = await submit(aliceKey, 'imagine', { prompt: 'doomed [[fail]]' });
    expect(res.body.code).toBe(1);
    expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);
    const done = await finished(res.body.result);
    expect(done).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      fail_reason: 'Job action restricted',
      quota: 0,
    });
    // The refund is queued just after the row turns FAILURE: wait for it to be written.
    await waitFor('the refund', async () => {
      await settle(t);
      return (await quotaOf(t, alice.userId!)) === before ? true : null;
    });
    expect((await usage(alice.userId!)).used).toBe(used.used);
    const log = (await logsOf(t, alice.userId!)).at(-1)!;
    expect(log).toMatchObject({ type: 5, quota: 0, model_name: 'mj_imagine' });
    expect(log.content).toContain('Job action restricted');
    expect(log.content).toContain(`已退还 ${IMAGINE} 额度`);
    // Each reader gets the refund note in their own language.
    const mine = await alice.get('/api/log/self/?type=5').set('Accept-Language', 'en').expect(200);
    expect((mine.body.data.items as Array<{ content: string }>).map((row) => row.content)).toContainEqual(
      expect.stringMatching(new RegExp(`failed: Job action restricted; ${IMAGINE} quota refunded$`)),
    );
  });

  it('passes the proxy’s refusal codes through and refunds: 24 banned prompt, 23 queue full', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const banned = await submit(aliceKey, 'imagine', { prompt: 'something [[code=24]]' });
    expect(banned.status).toBe(200);
    expect(banned.body).toMatchObject({
      code: 24,
      description: 'May contain sensitive words',
      properties: { bannedWord: 'nude' },
    });
    const full = await submit(aliceKey, 'imagine', { prompt: 'busy [[code=23]]' });
    expect(full.body.code).toBe(23);
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    const rows = await t.ds.getRepository(Midjourney).find({ where: { user_id: alice.userId!, code: 24 } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      fail_reason: 'May contain sensitive words',
    });
    expect(Number(rows[0].quota)).toBe(0);
  });

  it('code 22 (queued) and 21 (exists with a result) are submissions; 22 is polled to the end, 21 is done at once', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const queued = await submit(aliceKey, 'imagine', { prompt: 'queued [[queued]]' });
    expect(queued.body).toMatchObject({ code: 22 });
    expect(await finished(queued.body.result)).toMatchObject({ status: 'SUCCESS', code: 22 });
    const exists = await submit(aliceKey, 'imagine', { prompt: 'again [[exists]]' });
    expect(exists.body).toMatchObject({ code: 21, properties: { status: 'SUCCESS' } });
    expect(await row(exists.body.result)).toMatchObject({ status: 'SUCCESS', progress: '100%', code: 21 });
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - 2 * IMAGINE);
  });

  it('an upstream failure (HTTP 500, bad secret, no task id, unreachable) costs nothing; RetryTimes tries the next channel', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const count = await t.ds.getRepository(Midjourney).count();
    const boom = await submit(aliceKey, 'imagine', { prompt: 'boom [[status=500]]' });
    expect(boom.status).toBe(502);
    expect(boom.body).toMatchObject({ code: 4, type: 'upstream_error' });
    const noId = await submit(aliceKey, 'imagine', { prompt: 'no id [[noid]]' });
    expect(noId.status).toBe(502);
    expect(noId.body.code).toBe(4);
    // Recorded as a failed submission for the drawing log.
    expect(await t.ds.getRepository(Midjourney).count()).toBe(count + 1);

    await updateChannel(t, channelId, { key: 'wrong-secret' });
    const denied = await submit(aliceKey, 'imagine', { prompt: 'denied' });
    expect(denied.status).toBe(502);
    expect(JSON.stringify(denied.body)).not.toContain('wrong-secret');
    await updateChannel(t, channelId, { key: mock.secret });

    // An unreachable channel of a higher priority: an error without retries, the next channel with them.
    const dead = await makeChannel(t, {
      type: 2,
      base_url: 'http://127.0.0.1:9',
      key: 'k',
      models: 'mj_shorten',
      priority: 10,
    });
    const unreachable = await submit(aliceKey, 'shorten', { prompt: 'short' });
    expect(unreachable.status).toBe(502);
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    await putOption(root, 'RetryTimes', 1);
    const retried = await submit(aliceKey, 'shorten', { prompt: 'short again' });
    expect(retried.body.code).toBe(1);
    expect(await row(retried.body.result)).toMatchObject({
      channel_id: channelId,
      action: 'SHORTEN',
      quota: IMAGINE,
    });
    await putOption(root, 'RetryTimes', 0);
    await updateChannel(t, dead, { status: 2 });
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);
  });

  it('a task belongs to its submitter: nobody else can fetch it, list it or act on it', async () => {
    const id: string = (await submit(aliceKey, 'imagine', { prompt: 'private fox' })).body.result;
    await finished(id);
    expect((await fetchTask(aliceKey, id)).status).toBe(200);
    const other = await fetchTask(bobKey, id);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: 4 });
    const listed = await request(t.url)
      .post('/mj/task/list-by-condition')
      .set('mj-api-secret', bobKey)
      .send({ ids: [id] });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    const mine = await request(t.url)
      .post('/mj/task/list-by-condition')
      .set('mj-api-secret', aliceKey)
      .send({ ids: [id, 'unknown', id] });
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ id, status: 'SUCCESS' });

    await settle(t);
    const bobBefore = await quotaOf(t, bob.userId!);
    const hijack = await submit(bobKey, 'change', { action: 'UPSCALE', index: 1, taskId: id });
    expect(hijack.status).toBe(404);
    await settle(t);
    expect(await quotaOf(t, bob.userId!)).toBe(bobBefore);
  });

  it('follow-up actions go to the original task’s channel and are billed as their own model', async () => {
    const pending: string = (await submit(aliceKey, 'imagine', { prompt: 'a storm [[hang]]' })).body.result;
    await waitFor('in progress', async () => (await row(pending)).status === 'IN_PROGRESS');
    // MjActionCheckSuccessEnabled (default on): not before the original succeeded.
    const early = await submit(aliceKey, 'change', { action: 'UPSCALE', index: 2, taskId: pending });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe(4);
    const first: string = (await submit(aliceKey, 'imagine', { prompt: 'a lighthouse' })).body.result;
    await finished(first);

    // A second channel for mj_upscale exists; the action still goes to the original's channel.
    const other = await makeChannel(t, {
      type: 5,
      base_url: 'http://127.0.0.1:9',
      key: 'k',
      models: 'mj_upscale',
      priority: 10,
    });
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const up = await submit(aliceKey, 'change', { action: 'UPSCALE', index: 2, taskId: first });
    expect(up.body.code).toBe(1);
    expect(mock.last()!.path).toBe('/mj/submit/change');
    const upRow = await finished(up.body.result);
    expect(upRow).toMatchObject({
      action: 'UPSCALE',
      channel_id: channelId,
      quota: UPSCALE,
      prompt: 'a lighthouse',
      status: 'SUCCESS',
    });

    const simple = await submit(aliceKey, 'simple-change', { content: `${first} V3` });
    expect(simple.body.code).toBe(1);
    expect((await row(simple.body.result)).action).toBe('VARIATION');

    const button = await submit(aliceKey, 'action', {
      customId: `MJ::JOB::upsample::3::${first}`,
      taskId: first,
    });
    expect((await row(button.body.result)).action).toBe('UPSCALE');

    // Inpaint opens a modal: free, code 21, status MODAL; the modal submission is billed.
    const inpaint = await submit(aliceKey, 'action', {
      customId: `MJ::Inpaint::1::${first}::SOLO`,
      taskId: first,
    });
    expect(inpaint.body.code).toBe(21);
    expect(await row(inpaint.body.result)).toMatchObject({ action: 'INPAINT', status: 'MODAL', quota: 0 });
    const modal = await submit(aliceKey, 'modal', {
      taskId: inpaint.body.result,
      prompt: 'add a boat',
      maskBase64: 'data:image/png;base64,AAAA',
    });
    expect(modal.body.code).toBe(1);
    expect(await row(modal.body.result)).toMatchObject({
      action: 'MODAL',
      quota: IMAGINE,
      prompt: 'add a boat',
    });

    await settle(t);
    // upscale 0.05 ×2 (change, button) + variation 0.1 + modal 0.1
    expect(await quotaOf(t, alice.userId!)).toBe(before - 2 * UPSCALE - IMAGINE - IMAGINE);
    await updateChannel(t, other, { status: 2 });

    // The original's channel disabled: refused before anything is charged.
    await updateChannel(t, channelId, { status: 2 });
    const gone = await submit(aliceKey, 'change', { action: 'VARIATION', index: 1, taskId: first });
    expect(gone.status).toBe(400);
    await updateChannel(t, channelId, { status: 1 });
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - 2 * UPSCALE - 2 * IMAGINE);
  });

  it('with MjActionCheckSuccessEnabled off, an action on an unfinished task is passed on', async () => {
    const pending: string = (await submit(aliceKey, 'imagine', { prompt: 'unfinished [[hang]]' })).body
      .result;
    await waitFor('in progress', async () => (await row(pending)).status === 'IN_PROGRESS');
    await putOption(root, 'MjActionCheckSuccessEnabled', false);
    try {
      const res = await submit(aliceKey, 'change', { action: 'UPSCALE', index: 1, taskId: pending });
      expect(res.body.code).toBe(1);
      expect(await row(res.body.result)).toMatchObject({ action: 'UPSCALE', quota: UPSCALE });
    } finally {
      await putOption(root, 'MjActionCheckSuccessEnabled', true);
    }
  });

  it('upload-discord-images answers the image URLs at once and is billed as mj_upload', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const res = await submit(aliceKey, 'upload-discord-images', {
      base64Array: ['data:image/png;base64,AAAA'],
    });
    expect(res.body).toMatchObject({ code: 1, result: [`${mock.url}/attachments/upload0.png`] });
    const rows = await t.ds
      .getRepository(Midjourney)
      .find({ where: { user_id: alice.userId!, action: 'UPLOAD' } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      image_url: `${mock.url}/attachments/upload0.png`,
    });
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before - UPLOAD);
  });

  it('MjModeClearEnabled strips --fast/--relax/--turbo; MjAccountFilterEnabled decides whether accountFilter goes upstream', async () => {
    await submit(aliceKey, 'imagine', { prompt: 'a cat --fast --v 6', accountFilter: { instanceId: 'abc' } });
    expect(mock.last()!.body.prompt).toBe('a cat --fast --v 6');
    expect(mock.last()!.body).not.toHaveProperty('accountFilter');
    await putOption(root, 'MjModeClearEnabled', true);
    await putOption(root, 'MjAccountFilterEnabled', true);
    const res = await submit(aliceKey, 'imagine', {
      prompt: 'a dog --relax --turbo --v 6',
      accountFilter: { instanceId: 'abc' },
    });
    expect(mock.last()!.body.prompt).toBe('a dog --v 6');
    expect(mock.last()!.body.accountFilter).toEqual({ instanceId: 'abc' });
    expect((await row(res.body.result)).prompt).toBe('a dog --v 6');
    await putOption(root, 'MjModeClearEnabled', false);
    await putOption(root, 'MjAccountFilterEnabled', false);
  });

  it('MjNotifyEnabled: the proxy calls the gateway back (signed), the task settles, and the caller’s notifyHook gets the task', async () => {
    const hook = await receiver();
    try {
      await putOption(root, 'MjNotifyEnabled', true);
      await settle(t);
      const before = await quotaOf(t, alice.userId!);
      const res = await submit(aliceKey, 'imagine', { prompt: 'called back [[hang]]', notifyHook: hook.url });
      const id: string = res.body.result;
      const sent = mock.last()!.body.notifyHook as string;
      expect(sent).toMatch(new RegExp(`^${t.url}/mj/notify\\?channel=${channelId}&sig=[0-9a-f]{40}$`));
      expect(sent).not.toContain(hook.url);

      await mock.complete(id);
      expect(mock.callbacks.at(-1)).toEqual([sent, 200]);
      expect(await row(id)).toMatchObject({ status: 'SUCCESS', progress: '100%' });
      // The signed callback address never reaches the caller (it would let them report their own tasks failed).
      const answer = await fetchTask(aliceKey, id);
      expect(answer.body.properties).toMatchObject({ finalPrompt: 'called back [[hang]]' });
      expect(JSON.stringify(answer.body)).not.toContain('/mj/notify');
      expect(JSON.stringify((await alice.get('/api/mj/self/?page_size=100')).body)).not.toContain(
        '/mj/notify',
      );
      expect(JSON.stringify(hook.bodies)).not.toContain('/mj/notify');
      const delivered = (await waitFor('caller callback', async () =>
        hook.bodies.find(
          (b) =>
            (b as { id: string; status: string }).id === id && (b as { status: string }).status === 'SUCCESS',
        ),
      )) as Record<string, unknown>;
      expect(delivered).toMatchObject({ id, action: 'IMAGINE', progress: '100%' });
      await settle(t);
      expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);

      // Forged or replayed-to-another-channel callbacks are refused and change nothing.
      const victim: string = (await submit(aliceKey, 'imagine', { prompt: 'victim [[hang]]' })).body.result;
      const forged = await request(t.url)
        .post(`/mj/notify?channel=${channelId}&sig=${'0'.repeat(40)}`)
        .send({ id: victim, status: 'FAILURE', failReason: 'forged' });
      expect(forged.status).toBe(401);
      const sig = new URL(sent).searchParams.get('sig');
      const moved = await request(t.url)
        .post(`/mj/notify?channel=${channelId + 1000}&sig=${sig}`)
        .send({ id: victim, status: 'FAILURE' });
      expect(moved.status).toBe(401);
      const unknown = await request(t.url)
        .post(`/mj/notify?channel=${channelId}&sig=${sig}`)
        .send({ id: 'nope', status: 'SUCCESS' });
      expect(unknown.status).toBe(404);
      expect((await row(victim)).status).not.toBe('FAILURE');
      // A callback reporting failure refunds.
      await mock.fail(victim, 'Banned prompt');
      expect(await row(victim)).toMatchObject({ status: 'FAILURE', fail_reason: 'Banned prompt', quota: 0 });
      await settle(t);
      expect(await quotaOf(t, alice.userId!)).toBe(before - IMAGINE);
    } finally {
      await putOption(root, 'MjNotifyEnabled', false);
      await hook.close();
    }
  });

  it('a stale task fails with a timeout and is refunded; a finished task never changes again', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const id: string = (await submit(aliceKey, 'imagine', { prompt: 'forever [[hang]]' })).body.result;
    await waitFor('in progress', async () => (await row(id)).status === 'IN_PROGRESS');
    // Submitted 11 minutes ago: past TASK_TIMEOUT (600 s).
    await t.ds.getRepository(Midjourney).update({ mj_id: id }, { submit_time: Date.now() - 11 * 60_000 });
    await t.app.get(TaskPoller).pollOnce();
    const done = await row(id);
    expect(done).toMatchObject({ status: 'FAILURE', progress: '100%', quota: 0 });
    expect(done.fail_reason).toContain('timed out');
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    // The upstream finishing it later changes nothing (no charge after a refund).
    await mock.complete(id);
    await t.app.get(TaskPoller).pollOnce();
    expect((await row(id)).status).toBe('FAILURE');
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
  });

  it('concurrent submissions never spend more than the balance', async () => {
    const carol = await makeUser(t, root);
    await setQuota(t, carol.userId!, 3 * IMAGINE + 100);
    const key = (await makeToken(t, carol.userId!)).key;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => submit(key, 'imagine', { prompt: `rush ${i}` })),
    );
    const ok = answers.filter((a) => a.status === 200 && a.body.code === 1);
    const refused = answers.filter((a) => a.status === 403);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(5);
    expect(refused[0].body).toMatchObject({ code: 4 });
    await Promise.all(ok.map((a) => finished(a.body.result)));
    await settle(t);
    expect(await quotaOf(t, carol.userId!)).toBe(100);
  });

  it('refuses bad input in the proxy’s format, changing nothing', async () => {
    await settle(t);
    const before = await quotaOf(t, alice.userId!);
    const count = await t.ds.getRepository(Midjourney).count();
    const noKey = await request(t.url).post('/mj/submit/imagine').send({ prompt: 'x' });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ code: 4, result: null });
    expect((await submit('sk-' + 'x'.repeat(48), 'imagine', { prompt: 'x' })).status).toBe(401);
    const cases: Array<[string, unknown]> = [
      ['imagine', {}],
      ['imagine', { prompt: '' }],
      ['imagine', { prompt: 42 }],
      ['imagine', { prompt: 'x', base64Array: 'nope' }],
      ['imagine', { prompt: 'x', base64Array: ['a', 'b', 'c', 'd', 'e', 'f'] }],
      ['imagine', { prompt: 'nul\u0000byte' }],
      ['imagine', { prompt: 'x', notifyHook: 5 }],
      ['imagine', { prompt: 'x'.repeat(9000) }],
      ['blend', { base64Array: ['only-one'] }],
      ['describe', {}],
      ['change', { action: 'UPSCALE', index: 9, taskId: '123' }],
      ['change', { action: 'EXPLODE', index: 1, taskId: '123' }],
      ['change', { action: 'UPSCALE', index: 1 }],
      ['change', { action: 'UPSCALE', index: 1, taskId: 'x y' }],
      ['simple-change', { content: '123 U9' }],
      ['simple-change', { content: 'garbage' }],
      ['action', { customId: 'not-a-button', taskId: '123' }],
      ['upload-discord-images', { base64Array: [] }],
    ];
    for (const [route, body] of cases) {
      const res = await submit(aliceKey, route, body);
      expect([route, res.status]).toEqual([route, 400]);
      expect(res.body.code).toBe(4);
      expect(typeof res.body.description).toBe('string');
    }
    for (const raw of ['{"prompt":', '[1,2]', '"text"', '']) {
      const res = await request(t.url)
        .post('/mj/submit/imagine')
        .set('mj-api-secret', aliceKey)
        .set('content-type', 'application/json')
        .send(raw);
      expect(res.status).toBe(400);
    }
    const unknownTask = await submit(aliceKey, 'change', { action: 'UPSCALE', index: 1, taskId: '99999999' });
    expect(unknownTask.status).toBe(404);
    expect(
      (await request(t.url).post('/mj/submit/explode').set('mj-api-secret', aliceKey).send({})).status,
    ).toBe(404);
    const many = await request(t.url)
      .post('/mj/task/list-by-condition')
      .set('mj-api-secret', aliceKey)
      .send({ ids: Array.from({ length: 501 }, (_, i) => String(i)) });
    expect(many.status).toBe(400);
    expect(
      (
        await request(t.url)
          .post('/mj/task/list-by-condition')
          .set('mj-api-secret', aliceKey)
          .send({ ids: [1, 2] })
      ).status,
    ).toBe(400);
    await settle(t);
    expect(await quotaOf(t, alice.userId!)).toBe(before);
    expect(await t.ds.getRepository(Midjourney).count()).toBe(count);
  });

  it('applies the relay’s rules: quota, model limits, drawing switch, sensitive words, prices', async () => {
    const dave = await makeUser(t, root);
    const key = (await makeToken(t, dave.userId!)).key;
    const broke = await submit(key, 'imagine', { prompt: 'x' });
    expect(broke.status).toBe(403);
    expect(broke.body.code).toBe(4);

    await setQuota(t, dave.userId!, 1_000_000);
    const limited = (await makeToken(t, dave.userId!, { model_limits: 'mj_describe' })).key;
    expect((await submit(limited, 'imagine', { prompt: 'x' })).status).toBe(403);
    const limitedToken = (
      await makeToken(t, dave.userId!, { remain_quota: IMAGINE - 1, unlimited_quota: false })
    ).key;
    expect((await submit(limitedToken, 'imagine', { prompt: 'x' })).status).toBe(403);

    await putOption(root, 'CheckSensitiveEnabled', true);
    await putOption(root, 'CheckSensitiveOnPromptEnabled', true);
    await putOption(root, 'SensitiveWords', 'forbiddenword');
    const sensitive = await submit(key, 'imagine', { prompt: 'a forbiddenword here' });
    expect(sensitive.status).toBe(400);
    expect(sensitive.body.code).toBe(24);
    await putOption(root, 'CheckSensitiveEnabled', false);

    // A task model with only a token ratio (no per-call price) is refused.
    const option = async (k: string) =>
      (await root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === k).value as string;
    const [savedPrices, savedRatios] = [await option('ModelPrice'), await option('ModelRatio')];
    await putOption(root, 'ModelRatio', JSON.stringify({ ...JSON.parse(savedRatios), mj_describe: 5 }));
    const prices = JSON.parse(savedPrices);
    delete prices.mj_describe;
    await putOption(root, 'ModelPrice', JSON.stringify(prices));
    const unpriced = await submit(key, 'describe', { base64: 'data:image/png;base64,AAAA' });
    expect(unpriced.status).toBe(403);
    await putOption(root, 'ModelPrice', savedPrices);
    await putOption(root, 'ModelRatio', savedRatios);

    await putOption(root, 'DrawingEnabled', false);
    const off = await request(t.url)
      .post('/mj/submit/imagine')
      .set('mj-api-secret', key)
      .set('Accept-Language', 'en')
      .send({ prompt: 'x' });
    expect(off.status).toBe(403);
    expect(off.body.description).toBe('Drawing is disabled by the administrator');
    await putOption(root, 'DrawingEnabled', true);
    await settle(t);
    expect(await quotaOf(t, dave.userId!)).toBe(1_000_000);
  });

  it('drawing log: admins see everyone’s tasks with channels and filters; users only their own, without channels', async () => {
    const bobTask: string = (await submit(bobKey, 'imagine', { prompt: 'bob draws' })).body.result;
    await finished(bobTask);
    const all = await root.get('/api/mj/?p=1&page_size=100');
    expect(all.body.success).toBe(true);
    const items = all.body.data.items as Array<Record<string, unknown>>;
    expect(all.body.data.total).toBe(items.length);
    expect(items.some((i) => i.user_id === alice.userId)).toBe(true);
    expect(items.some((i) => i.user_id === bob.userId)).toBe(true);
    const bobRow = items.find((i) => i.mj_id === bobTask)!;
    expect(bobRow).toMatchObject({
      channel_id: channelId,
      action: 'IMAGINE',
      code: 1,
      status: 'SUCCESS',
      progress: '100%',
      prompt: 'bob draws',
    });
    expect(bobRow).toHaveProperty('created_at');
    expect(bobRow).toHaveProperty('finish_time');
    expect(bobRow).toHaveProperty('prompt_en');
    expect(bobRow).toHaveProperty('fail_reason');
    expect(bobRow).toHaveProperty('image_url');
    expect(items[0].id as number).toBeGreaterThan(items[1].id as number);
    // ms timestamps
    expect(bobRow.submit_time as number).toBeGreaterThan(1e12);

    const byId = await root.get(`/api/mj/?mj_id=${bobTask}`);
    expect(byId.body.data.items.map((i: { mj_id: string }) => i.mj_id)).toEqual([bobTask]);
    expect((await root.get(`/api/mj/?channel_id=${channelId + 999}`)).body.data.total).toBe(0);
    const submitted = bobRow.submit_time as number;
    expect(
      (await root.get(`/api/mj/?mj_id=${bobTask}&start_timestamp=${submitted}&end_timestamp=${submitted}`))
        .body.data.total,
    ).toBe(1);
    expect(
      (await root.get(`/api/mj/?mj_id=${bobTask}&start_timestamp=${submitted + 1}`)).body.data.total,
    ).toBe(0);
    const paged = await root.get('/api/mj/?p=2&page_size=1');
    expect(paged.body.data).toMatchObject({ page: 2, page_size: 1, total: all.body.data.total });
    expect(paged.body.data.items).toHaveLength(1);
    expect((await root.get('/api/mj/?page_size=1000')).body.data.page_size).toBe(100);

    const own = await bob.get('/api/mj/self/?p=1&page_size=100&channel_id=' + channelId);
    expect(own.body.success).toBe(true);
    expect(own.body.data.items.length).toBeGreaterThan(0);
    for (const item of own.body.data.items) {
      expect(item).not.toHaveProperty('channel_id');
      expect(item).not.toHaveProperty('user_id');
    }
    const ownIds = (own.body.data.items as Array<{ mj_id: string }>).map((i) => i.mj_id);
    expect(ownIds).toContain(bobTask);
    const aliceIds = (await alice.get('/api/mj/self/?page_size=100')).body.data.items.map(
      (i: { mj_id: string }) => i.mj_id,
    );
    expect(aliceIds).not.toContain(bobTask);
    expect((await bob.get('/api/mj/')).status).toBe(403);
    expect((await request(t.url).get('/api/mj/self')).status).toBe(401);

    for (const q of [
      'start_timestamp=-1',
      'start_timestamp=abc',
      'mj_id=%00',
      'channel_id=1e3',
      'end_timestamp=99999999999999999',
    ]) {
      const bad = await root.get(`/api/mj/?${q}`);
      expect([q, bad.status, bad.body.success]).toEqual([q, 200, false]);
    }
  });

  it('polls only on the master node', async () => {
    expect(t.app.get(TaskPoller).active).toBe(true);
    const slave = await startNode(t, { NODE_TYPE: 'slave', ...TASK_ENV });
    try {
      expect(slave.app.get(TaskPoller).active).toBe(false);
      // A slave still relays: the task it takes is finished by the master's poller.
      const res = await request(slave.url)
        .post('/mj/submit/imagine')
        .set('mj-api-secret', aliceKey)
        .send({ prompt: 'via slave' });
      expect(res.body.code).toBe(1);
      expect((await finished(res.body.result)).status).toBe('SUCCESS');
    } finally {
      await slave.close();
    }
  });
});
