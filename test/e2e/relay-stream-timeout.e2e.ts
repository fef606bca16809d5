/**
 * STREAMING_TIMEOUT: a stream whose upstream stays silent that long is ended (and the upstream call
 * dropped); a stream that keeps sending, however long it lasts in all, is not. The timeout is 2 s and
 * the chunks 0.5 s apart: a loaded machine (the three databases' suites at once) can hold a process's
 * event loop for half a second, which a 1 s timeout with chunks 0.45 s apart did not always survive.
 */
import request from 'supertest';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

describe('relay: STREAMING_TIMEOUT', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let key: string;
  let userId: number;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp({ STREAMING_TIMEOUT: '2' });
    const root = await setupRoot(t);
    const user = await makeUser(t, root);
    userId = user.userId!;
    await setQuota(t, userId, 5_000_000);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
    key = (await makeToken(t, userId)).key;
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const stream = (content: string) =>
    request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content }] });

  it('keeps a stream whose chunks come less than the timeout apart, even when it lasts longer in all', async () => {
    const started = Date.now();
    const res = await stream('[[chunks=5]] [[slow=500]] [[usage=5,5]]');
    expect(Date.now() - started).toBeGreaterThan(2100);
    expect(res.status).toBe(200);
    expect(res.text).toContain('w5');
    expect(res.text.trim().endsWith('data: [DONE]')).toBe(true);
    await settle(t);
    const log = (await logsOf(t, userId)).at(-1)!;
    expect(log).toMatchObject({ type: 2, prompt_tokens: 5, completion_tokens: 5 });
    expect(log.other.stream_interrupted).toBeUndefined();
  });

  it('ends a stream whose upstream stays silent longer than the timeout with an error event, drops the upstream call, bills exactly what was logged', async () => {
    const before = await quotaOf(t, userId);
    mock.reset();
    const started = Date.now();
    const res = await stream('[[chunks=3]] [[slow=5000]]');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(4900);
    // The role chunk had gone out: the stream ends with an error event in the client's format.
    expect(res.status).toBe(200);
    const events = res.text.split('\n\n').filter(Boolean);
    expect(events[0]).toContain('"role":"assistant"');
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toMatchObject({
      error: { message: 'the upstream sent nothing for 2 s', type: 'upstream_error' },
    });
    expect(events.at(-1)).toBe('data: [DONE]');
    await mock.waitFor(() => mock.last?.aborted === true, 3000);
    await settle(t);
    const log = (await logsOf(t, userId)).at(-1)!;
    expect(log.other.stream_interrupted).toBe(true);
    expect(before - (await quotaOf(t, userId))).toBe(log.quota);
  });
});
