import request from 'supertest';
import { OptionService } from '../../server/src/modules/option/option.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota } from '../support/relay-fixtures';
import { putOption, REDIS_URL, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

/** Two nodes on one database and one Redis: rate-limit counters are shared, channel changes reach both. */
describe('relay across nodes with Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let mock: MockUpstream;
  let key: string;
  const env = { REDIS_CONN_STRING: REDIS_URL, REDIS_PREFIX: `gh-test-${process.pid}-${Date.now()}` };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    a = await startApp(env);
    b = await startNode(a, env);
    const root = await setupRoot(a);
    await setQuota(a, root.userId!, 10_000_000);
    await makeChannel(a, { type: 1, base_url: mock.url, models: 'gpt-4o' });
    key = (await makeToken(a, root.userId!)).key;
    await putOption(root, 'ModelRequestRateLimitEnabled', 'true');
    await putOption(root, 'ModelRequestRateLimitCount', '3');
    await putOption(root, 'ModelRequestRateLimitDurationMinutes', '1');
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mock?.close();
  });

  const ask = (t: TestApp) =>
    request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

  it('counts one user’s requests on both nodes against one limit', async () => {
    // The option change made on node A reaches node B through Redis.
    const options = b.app.get(OptionService);
    const deadline = Date.now() + 1000;
    while (options.num('ModelRequestRateLimitCount') !== 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(options.bool('ModelRequestRateLimitEnabled')).toBe(true);
    expect(options.num('ModelRequestRateLimitCount')).toBe(3);
    const statuses = [(await ask(a)).status, (await ask(b)).status, (await ask(a)).status];
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await ask(b);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.type).toBe('rate_limit_error');
    expect((await ask(a)).status).toBe(429);
  });
});
