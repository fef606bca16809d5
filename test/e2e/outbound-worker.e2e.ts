/**
 * The proxy worker (WorkerUrl, WorkerValidKey): when root sets WorkerUrl, the gateway's own outbound
 * calls to addresses a user or a task gave it (webhook notices, task result images) are POSTed to the
 * worker as `{url, key, method, headers, body}` instead of being made directly; with WorkerUrl empty
 * they go direct. The target still has to pass the address rule first, and the key is never returned.
 */
import type { LookupAddress } from 'node:dns';
import request from 'supertest';
import { resolver } from '../../server/src/common/safe-http';
import { Midjourney, User } from '../../server/src/database/entities';
import { MockFetchWorker, WORKER_PNG } from '../mocks/fetch-worker';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

describe('outbound calls through the proxy worker', () => {
  let worker: MockFetchWorker;
  let mock: MockUpstream;
  const apps: TestApp[] = [];
  let seq = 0;

  beforeAll(async () => {
    worker = await MockFetchWorker.start();
    mock = await MockUpstream.start();
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    await mock?.close();
    await worker?.close();
  });

  async function gateway(env: Record<string, string>): Promise<{ t: TestApp; root: ApiClient }> {
    const t = await startApp({ OUTBOUND_CA_FILE: worker.certFile, ...env });
    apps.push(t);
    const root = await setupRoot(t);
    if (env.ALLOW_PRIVATE_OUTBOUND === 'false') await putOption(root, 'ChannelPrivateAddressesAllowed', true);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
    await putOption(root, 'DrawingEnabled', true);
    await putOption(root, 'MjForwardUrlEnabled', true);
    return { t, root };
  }

  /** A charge that leaves a user under their warning threshold, whose notice goes to `hook`. */
  async function lowBalanceCall(t: TestApp, root: ApiClient, hook: string): Promise<void> {
    const user = await makeUser(t, root);
    const setting = {
      notify_type: 'webhook',
      webhook_url: hook,
      webhook_secret: 'whsec-worker',
      quota_warning_threshold: 1_000_000,
    };
    // Written directly, so the rule at sending time is what is tested (not the form's check).
    await t.ds.getRepository(User).update(user.userId!, { setting: JSON.stringify(setting) });
    await setQuota(t, user.userId!, 600_000);
    const key = (await makeToken(t, user.userId!)).key;
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    await settle(t);
  }

  /** A finished drawing task whose result image is at `imageUrl`, served through /mj/image/{id}. */
  async function imageOf(t: TestApp, imageUrl: string): Promise<request.Response> {
    const mjId = `worker-task-${++seq}`;
    const now = Date.now();
    await t.ds.getRepository(Midjourney).save({
      mj_id: mjId,
      user_id: 1,
      action: 'IMAGINE',
      status: 'SUCCESS',
      progress: '100%',
      image_url: imageUrl,
      created_at: now,
      submit_time: now,
      start_time: now,
      finish_time: now,
      quota: 0,
    });
    return request(t.url)
      .get(`/mj/image/${mjId}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
  }

  const callsTo = (path: string) => worker.calls.filter((c) => new URL(c.url).pathname === path);
  const hitsOn = (path: string) => worker.hits.filter((h) => h.path === path);

  it('with WorkerUrl set, sends the webhook notice and the image download through the worker, with the key', async () => {
    const { t, root } = await gateway({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    await putOption(root, 'WorkerUrl', worker.workerUrl);
    await putOption(root, 'WorkerValidKey', worker.key);

    await lowBalanceCall(t, root, `${worker.url}/hook-1`);
    const hit = await worker.waitForHit((h) => h.path === '/hook-1');
    expect(hit.via).toBe('worker');
    expect(hitsOn('/hook-1')).toHaveLength(1);
    const [call] = callsTo('/hook-1');
    expect(call).toMatchObject({ url: `${worker.url}/hook-1`, key: worker.key, method: 'POST' });
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.body).toMatchObject({ type: 'quota_exceed', title: expect.any(String) });
    expect(typeof call.headers['X-Webhook-Signature']).toBe('string');

    const img = await imageOf(t, `${worker.url}/result-1.png`);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.body as Buffer, WORKER_PNG)).toBe(0);
    expect(callsTo('/result-1.png')).toEqual([
      expect.objectContaining({ url: `${worker.url}/result-1.png`, key: worker.key, method: 'GET' }),
    ]);
    expect(hitsOn('/result-1.png').map((h) => h.via)).toEqual(['worker']);

    // The key is a secret: root's option list does not carry it.
    const list = await root.get('/api/option/');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(worker.key);

    // A worker that refuses the key gets no image served from the gateway's origin.
    await putOption(root, 'WorkerValidKey', 'wrong-key');
    const refused = await imageOf(t, `${worker.url}/result-2.png`);
    expect(refused.status).toBe(502);
    expect(callsTo('/result-2.png').map((c) => c.key)).toEqual(['wrong-key']);
    expect(hitsOn('/result-2.png')).toHaveLength(0);
  });

  it('with WorkerUrl empty, calls the target directly and the worker sees nothing', async () => {
    const { t, root } = await gateway({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    await putOption(root, 'WorkerValidKey', worker.key);

    await lowBalanceCall(t, root, `${worker.url}/hook-direct`);
    const hit = await worker.waitForHit((h) => h.path === '/hook-direct');
    expect(hit.via).toBe('direct');
    expect(hit.method).toBe('POST');
    expect(JSON.parse(hit.body)).toMatchObject({ type: 'quota_exceed' });
    expect(hitsOn('/hook-direct')).toHaveLength(1);

    const img = await imageOf(t, `${worker.url}/direct.png`);
    expect(img.status).toBe(200);
    expect(Buffer.compare(img.body as Buffer, WORKER_PNG)).toBe(0);
    expect(hitsOn('/direct.png').map((h) => h.via)).toEqual(['direct']);
    expect(callsTo('/hook-direct')).toHaveLength(0);
    expect(callsTo('/direct.png')).toHaveLength(0);
  });

  it('still refuses a private target before handing it to the worker (the worker itself may be private)', async () => {
    const { t, root } = await gateway({ ALLOW_PRIVATE_OUTBOUND: 'false' });
    await putOption(root, 'WorkerUrl', worker.workerUrl);
    await putOption(root, 'WorkerValidKey', worker.key);
    const port = new URL(worker.url).port;
    // Names the gateway resolves: one public only, one public and private (the worker could get either).
    const real = resolver.lookup;
    const answers: Record<string, LookupAddress[]> = {
      'public-hook.example': [{ address: '93.184.216.34', family: 4 }],
      'mixed-hook.example': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    };
    type Callback = (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void;
    const lookup = real as unknown as (host: string, opts: object, cb: Callback) => void;
    resolver.lookup = ((host: string, opts: object, cb: Callback) =>
      answers[host] ? cb(null, answers[host]) : lookup(host, opts, cb)) as unknown as typeof resolver.lookup;
    try {
      await lowBalanceCall(t, root, `${worker.url}/private-hook`);
      await lowBalanceCall(t, root, `https://localhost:${port}/private-hook-name`);
      await lowBalanceCall(t, root, `https://mixed-hook.example/mixed-hook`);
      await lowBalanceCall(t, root, `https://public-hook.example/public-hook`);
      for (const target of [
        `${worker.url}/private.png`,
        `https://localhost:${port}/private-name.png`,
        `https://mixed-hook.example/mixed.png`,
        `https://public-hook.example/public.png`,
      ]) {
        const img = await imageOf(t, target);
        // Refused, or (the public one) handed to the worker, which forwards only to itself here.
        expect([target, img.status]).toEqual([target, 502]);
      }
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      resolver.lookup = real;
    }
    for (const path of [
      '/private-hook',
      '/private-hook-name',
      '/mixed-hook',
      '/private.png',
      '/private-name.png',
      '/mixed.png',
    ])
      expect([path, callsTo(path).length, hitsOn(path).length]).toEqual([path, 0, 0]);
    // A public target is handed over, to a worker at a loopback address root chose.
    expect(callsTo('/public-hook')).toEqual([
      expect.objectContaining({
        url: 'https://public-hook.example/public-hook',
        key: worker.key,
        method: 'POST',
      }),
    ]);
    expect(callsTo('/public.png')).toEqual([
      expect.objectContaining({
        url: 'https://public-hook.example/public.png',
        key: worker.key,
        method: 'GET',
      }),
    ]);
  });
});
