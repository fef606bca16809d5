import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ChannelTestService } from '../../server/src/modules/relay/channel-test.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, updateChannel } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/** Channel tests and the automatic disable / enable rules of the reference data. */
describe('channel health', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let slow: Server;
  let slowUrl: string;
  let root: ApiClient;

  const status = async (id: number) => {
    const rows: Array<{
      status: number;
      other_info: string | null;
      response_time: number;
      test_time: number;
    }> = await t.ds
      .createQueryBuilder()
      .select(['status', 'other_info', 'response_time', 'test_time'])
      .from('channels', 'c')
      .where('id = :id', { id })
      .getRawMany();
    return {
      ...rows[0],
      status: Number(rows[0].status),
      info: JSON.parse(rows[0].other_info || '{}') as Record<string, unknown>,
    };
  };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    slow = createServer((_req, res) => {
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'gpt-4o',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      }, 1300);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    t = await startApp();
    root = await setupRoot(t);
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await new Promise((r) => slow?.close(r));
  });

  it('records the response time of a passing test', async () => {
    const id = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o', name: 'ok' });
    const r = await t.app.get(ChannelTestService).testOne(id);
    expect(r).toMatchObject({ success: true, message: '' });
    expect(r!.time).toBeGreaterThan(0);
    const s = await status(id);
    expect(Number(s.test_time)).toBeGreaterThan(0);
    expect(mock.last!.body).toMatchObject({ model: 'gpt-4o' });
  });

  it('disables an auto_ban channel on a 401 and enables it again when a later test passes', async () => {
    await putOption(root, 'AutomaticDisableChannelEnabled', 'true');
    await putOption(root, 'AutomaticEnableChannelEnabled', 'true');
    const id = await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o',
      name: 'flaky',
      key: 'wrong-key',
    });
    const spare = await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o',
      name: 'spared',
      key: 'wrong-key',
      auto_ban: 0,
    });
    mock.requireKey = 'right-key';
    const r = await t.app.get(ChannelTestService).testOne(id);
    expect(r?.success).toBe(false);
    const s = await status(id);
    expect(s.status).toBe(3);
    expect(String(s.info.status_reason)).toContain('401');
    expect(Number(s.info.status_time)).toBeGreaterThan(0);
    await t.app.get(ChannelTestService).testOne(spare);
    expect((await status(spare)).status).toBe(1);

    // Root is told (system log), in the reader's language.
    const systemLogs = async (lang: string): Promise<string[]> => {
      const res = await root.get('/api/log/?type=4').set('Accept-Language', lang).expect(200);
      return (res.body.data.items as Array<{ content: string }>).map((row) => row.content);
    };
    expect(await systemLogs('en')).toContainEqual(
      expect.stringMatching(new RegExp(`^Channel #${id} \\(flaky\\) was disabled automatically: status 401`)),
    );
    expect(await systemLogs('zh')).toContainEqual(
      expect.stringMatching(new RegExp(`^渠道 #${id}（flaky）已被自动禁用：status 401`)),
    );

    mock.requireKey = null;
    await t.app.get(ChannelTestService).testOne(id);
    expect((await status(id)).status).toBe(1);
    expect(await systemLogs('en')).toContain(
      `Channel #${id} (flaky) passed its test and was enabled again automatically`,
    );
    expect(await systemLogs('zh')).toContain(`渠道 #${id}（flaky）测试通过，已被自动启用`);
    await updateChannel(t, id, { status: 2 });
    await t.app.get(ChannelTestService).testOne(id);
    expect((await status(id)).status).toBe(2);
  });

  it('disables a channel slower than ChannelDisableThreshold', async () => {
    await putOption(root, 'ChannelDisableThreshold', '1');
    const id = await makeChannel(t, { base_url: slowUrl, models: 'gpt-4o', name: 'slow' });
    const r = await t.app.get(ChannelTestService).testOne(id);
    expect(r?.success).toBe(false);
    expect(r!.time).toBeGreaterThan(1);
    expect((await status(id)).status).toBe(3);
  });

  it('disables a channel on an upstream 401 met by real traffic, and serves from the next one', async () => {
    await putOption(root, 'RetryTimes', '1');
    const user = root.userId!;
    await setQuota(t, user, 10_000_000);
    const key = (await makeToken(t, user)).key;
    const bad = await makeChannel(t, {
      base_url: mock.url,
      models: 'traffic-model',
      key: 'k1',
      priority: 10,
    });
    await makeChannel(t, { base_url: mock.url, models: 'traffic-model', key: 'k2', priority: 0 });
    await putOption(root, 'ModelRatio', JSON.stringify({ 'traffic-model': 1 }));
    mock.requireKey = 'k2';
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'traffic-model', messages: [{ role: 'user', content: 'hi' }] });
    mock.requireKey = null;
    expect(res.status).toBe(200);
    const deadline = Date.now() + 2000;
    while ((await status(bad)).status !== 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect((await status(bad)).status).toBe(3);
  });
});
