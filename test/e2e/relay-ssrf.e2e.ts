/**
 * One rule for every channel call (relay, channel test, model list): channels may not reach private,
 * loopback, link-local or otherwise special addresses unless root turns on ChannelPrivateAddressesAllowed
 * (or ALLOW_PRIVATE_OUTBOUND=true forces it). Literal addresses in every spelling and names that resolve
 * to them are refused; the refusal names the switch; nothing reaches the private service.
 */
import type { LookupAddress } from 'node:dns';
import { resolver } from '../../server/src/common/safe-http';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

describe('channel calls and private addresses', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let admin: ApiClient;
  let key: string;
  const channels: Array<[string, number]> = [];

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'false', RELAY_TIMEOUT: '3' });
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, 1_000_000);
    key = (await makeToken(t, user.userId!)).key;
    const port = new URL(mock.url).port;
    for (const [label, base] of [
      ['127.0.0.1', `http://127.0.0.1:${port}`],
      ['0.0.0.0', `http://0.0.0.0:${port}`],
      ['::ffff:127.0.0.1', `http://[::ffff:127.0.0.1]:${port}`],
      ['2130706433', `http://2130706433:${port}`],
      ['localhost', `http://localhost:${port}`],
    ] as const) {
      const model = `ssrf-${channels.length}`;
      channels.push([label, await makeChannel(t, { type: 1, base_url: base, models: model })]);
    }
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify(Object.fromEntries(channels.map((_, i) => [`ssrf-${i}`, 1]))),
    );
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const chat = (model: string) =>
    fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'accept-language': 'en',
      },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('refuses every spelling of a private address for relay calls and channel tests, naming the switch', async () => {
    for (const [i, [label, id]] of channels.entries()) {
      const res = await chat(`ssrf-${i}`);
      const body = (await res.json()) as { error: { message: string; code: string } };
      expect([label, res.status, body.error.code]).toEqual([label, 502, 'channel_address_refused']);
      expect(body.error.message).toContain('ChannelPrivateAddressesAllowed');
      const test = await root.get(`/api/channel/test/${id}`).expect(200);
      expect([label, test.body.success]).toEqual([label, false]);
      expect(test.body.message).toContain('ChannelPrivateAddressesAllowed');
    }
    const models = await root.post('/api/channel/fetch_models', { type: 1, base_url: mock.url, key: 'sk-x' });
    expect(models.body.success).toBe(false);
    expect(models.body.message).toContain('ChannelPrivateAddressesAllowed');
    expect(mock.requests).toHaveLength(0);
  });

  it('a name answering a private address among public ones is connected only to an address it checked', async () => {
    const id = await makeChannel(t, {
      type: 1,
      base_url: `http://rebind.test:${new URL(mock.url).port}`,
      models: 'ssrf-rebind',
    });
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ ...Object.fromEntries(channels.map((_, i) => [`ssrf-${i}`, 1])), 'ssrf-rebind': 1 }),
    );
    const real = resolver.lookup;
    let asked = 0;
    // Loopback first (where the mock listens), a public address second.
    resolver.lookup = ((_host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) => {
      asked++;
      cb(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '1.1.1.1', family: 4 },
      ]);
    }) as unknown as typeof resolver.lookup;
    try {
      const res = await chat('ssrf-rebind');
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(mock.requests).toHaveLength(0);
    } finally {
      resolver.lookup = real;
      await root.delete(`/api/channel/${id}`);
    }
  });

  it('only root can open the switch, and then every channel call obeys it', async () => {
    const refused = await admin.put('/api/option/', { key: 'ChannelPrivateAddressesAllowed', value: 'true' });
    expect(refused.body.success).toBe(false);
    await putOption(root, 'ChannelPrivateAddressesAllowed', 'true');
    try {
      const res = await chat('ssrf-0');
      expect(res.status).toBe(200);
      expect((await root.get(`/api/channel/test/${channels[0][1]}`).expect(200)).body.success).toBe(true);
      const models = await root.post('/api/channel/fetch_models', {
        type: 1,
        base_url: mock.url,
        key: 'sk-x',
      });
      expect(models.body.success).toBe(true);
    } finally {
      await putOption(root, 'ChannelPrivateAddressesAllowed', 'false');
    }
    expect((await chat('ssrf-0')).status).toBe(502);
  });
});
