/**
 * Error precedence of model traffic (docs/relay.md): route → authentication → model and group →
 * body → balance → limits → upstream. A caller without a working key learns nothing but that: the
 * same 401/403 whatever the body, in its own wire format. Matrix: every inbound format × key state ×
 * body state, and the realtime upgrade × key state.
 */
import { connect } from 'node:net';
import WebSocket from 'ws';
import { CacheBus } from '../../server/src/common/cache-bus';
import { Token } from '../../server/src/database/entities';
import { MockMidjourney } from '../mocks/midjourney';
import { MockUpstream } from '../mocks/mock-upstream';
import { MockSuno } from '../mocks/suno';
import { makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

type Family = 'openai' | 'anthropic' | 'gemini' | 'mj' | 'suno';
type KeyState = 'missing' | 'wrong' | 'disabled' | 'expired' | 'exhausted';
type BodyState = 'valid' | '{}' | 'invalid JSON' | 'empty';

interface Route {
  family: Family;
  path: string;
  /** How the key is sent by this family's clients. */
  header: (key: string) => Record<string, string>;
  valid: object;
}

const ROUTES: Route[] = [
  {
    family: 'openai',
    path: '/v1/chat/completions',
    header: (k) => ({ authorization: `Bearer ${k}` }),
    valid: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    family: 'anthropic',
    path: '/v1/messages',
    header: (k) => ({ 'x-api-key': k, 'anthropic-version': '2023-06-01' }),
    valid: { model: 'claude-sonnet-4', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    family: 'gemini',
    path: '/v1beta/models/gemini-2.0-flash:generateContent',
    header: (k) => ({ 'x-goog-api-key': k }),
    valid: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    family: 'mj',
    path: '/mj/submit/imagine',
    header: (k) => ({ 'mj-api-secret': k }),
    valid: { prompt: 'a lighthouse at dusk' },
  },
  {
    family: 'suno',
    path: '/suno/submit/music',
    header: (k) => ({ authorization: `Bearer ${k}` }),
    valid: { prompt: '[Verse] sailing', title: 'Sea', tags: 'folk' },
  },
];

const KEY_STATES: Array<[KeyState, number, string]> = [
  ['missing', 401, 'No API key provided'],
  ['wrong', 401, 'Invalid API key'],
  ['disabled', 401, 'This token is disabled'],
  ['expired', 401, 'This token has expired'],
  ['exhausted', 403, 'This token has used up its quota'],
];

const BODIES: Array<[BodyState, string]> = [
  ['valid', ''],
  ['{}', '{}'],
  ['invalid JSON', '{"model": '],
  ['empty', ''],
];

/** The error message of a body in each family's format (and the format checked on the way). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies of five formats
type Wire = Record<string, any>;

function messageOf(family: Family, body: Wire): string {
  switch (family) {
    case 'openai':
      expect(body.error).toMatchObject({ type: expect.any(String) });
      return body.error.message;
    case 'anthropic':
      expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
      return body.error.message;
    case 'gemini':
      expect(body.error).toMatchObject({ code: expect.any(Number), status: expect.any(String) });
      return body.error.message;
    case 'mj':
      expect(body).toMatchObject({ code: expect.any(Number), result: null });
      return body.description;
    case 'suno':
      expect(body).toMatchObject({ code: expect.any(String), data: null });
      return body.message;
  }
}

describe('relay error precedence', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let mj: MockMidjourney;
  let suno: MockSuno;
  let userId: number;
  const keys = {} as Record<KeyState | 'good', string>;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    mj = await MockMidjourney.start();
    suno = await MockSuno.start();
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true', TASK_POLL_INTERVAL: '60' });
    const root = await setupRoot(t);
    await putOption(root, 'DrawingEnabled', true);
    const user = await makeUser(t, root);
    userId = user.userId!;
    await setQuota(t, userId, 10_000_000);
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o' });
    await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-sonnet-4' });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'gemini-2.0-flash' });
    await makeChannel(t, { type: 2, base_url: mj.url, key: mj.secret, models: 'mj_imagine' });
    await makeChannel(t, { type: 36, base_url: suno.url, key: suno.key, models: 'suno_music' });
    keys.good = (await makeToken(t, userId)).key;
    keys.missing = '';
    keys.wrong = 'sk-' + 'x'.repeat(48);
    const states: Array<[KeyState, Partial<Token>]> = [
      ['disabled', { status: 2 }],
      ['expired', { expired_time: Math.floor(Date.now() / 1000) - 60 }],
      ['exhausted', { remain_quota: 0, unlimited_quota: false }],
    ];
    for (const [state, patch] of states) {
      const tk = await makeToken(t, userId, { name: state });
      await t.ds.getRepository(Token).update({ id: tk.id }, patch);
      t.app.get(CacheBus).publish('tokens', [tk.id]);
      keys[state] = tk.key;
    }
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([mock?.close(), mj?.close(), suno?.close()]);
  });

  const send = async (route: Route, key: string, body: BodyState) => {
    const text = body === 'valid' ? JSON.stringify(route.valid) : BODIES.find(([b]) => b === body)![1];
    const res = await fetch(t.url + route.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...(key ? route.header(key) : {}),
      },
      body: text,
    });
    return { status: res.status, body: (await res.json()) as Wire };
  };

  describe.each(ROUTES.map((r) => [r.family, r] as const))('%s', (_family, route) => {
    it.each(
      KEY_STATES.flatMap(([state, status, message]) =>
        BODIES.map(([body]) => [state, body, status, message] as const),
      ),
    )('key %s, body %s → %s, whatever the body', async (state, body, status, message) => {
      await settle(t);
      const before = await quotaOf(t, userId);
      const res = await send(route, keys[state], body);
      expect(res.status).toBe(status);
      expect(messageOf(route.family, res.body)).toBe(message);
      await settle(t);
      expect(await quotaOf(t, userId)).toBe(before);
    });

    it.each(BODIES.filter(([b]) => b !== 'valid').map(([b]) => [b]))(
      'a working key with body %s → 400',
      async (body) => {
        await settle(t);
        const before = await quotaOf(t, userId);
        const res = await send(route, keys.good, body);
        expect(res.status).toBe(400);
        expect(messageOf(route.family, res.body)).toEqual(expect.any(String));
        await settle(t);
        expect(await quotaOf(t, userId)).toBe(before);
      },
    );

    it('a working key with a valid body is served', async () => {
      const res = await send(route, keys.good, 'valid');
      expect(res.status).toBe(200);
    });
  });

  describe('balance and limits come after the body', () => {
    it('an empty balance is 403 for a valid body but 400 for an invalid one', async () => {
      const poor = await makeToken(t, userId, { name: 'poor' });
      await setQuota(t, userId, 0);
      try {
        const bad = await send(ROUTES[0], poor.key, 'invalid JSON');
        expect(bad.status).toBe(400);
        const ok = await send(ROUTES[0], poor.key, 'valid');
        expect(ok.status).toBe(403);
        expect(ok.body.error.message).toBe('Insufficient user quota');
      } finally {
        await setQuota(t, userId, 10_000_000);
      }
    });
  });

  describe('before the body is read', () => {
    /** Sends the head of a request whose body is declared `length` bytes and 1 KB of it; returns the first answer line. */
    const headOnly = (headers: string, length: number) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(t.url);
        const socket = connect(Number(port), '127.0.0.1');
        let got = '';
        socket.on('data', (d) => {
          got += d.toString();
          if (got.includes('\r\n')) {
            socket.destroy();
            resolve(got.split('\r\n')[0]);
          }
        });
        socket.on('error', reject);
        socket.write(
          `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}Content-Length: ${length}\r\n\r\n`,
        );
        socket.write('{"model":"gpt-4o","messages":[' + ' '.repeat(1024));
      });

    it('a body declared over 64 MB is refused at once, without waiting for it', async () => {
      expect(await headOnly(`Authorization: Bearer ${keys.good}\r\n`, 100 * 1024 * 1024)).toBe(
        'HTTP/1.1 413 Payload Too Large',
      );
    });

    it('a caller without a key is refused from its headers while its large body is still on the way', async () => {
      expect(await headOnly('', 60 * 1024 * 1024)).toBe('HTTP/1.1 401 Unauthorized');
      expect(await headOnly('Authorization: Bearer sk-wrong-key-000000000000\r\n', 60 * 1024 * 1024)).toBe(
        'HTTP/1.1 401 Unauthorized',
      );
    });
  });

  describe('bodies nested 100,000 deep', () => {
    it.each([
      [
        'openai',
        '/v1/chat/completions',
        (deep: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":${deep}}]}`,
      ],
      [
        'anthropic',
        '/v1/messages',
        (deep: string) =>
          `{"model":"claude-sonnet-4","max_tokens":9,"messages":[{"role":"user","content":${deep}}]}`,
      ],
      [
        'gemini',
        '/v1beta/models/gemini-2.0-flash:generateContent',
        (deep: string) => `{"contents":[{"role":"user","parts":${deep}}]}`,
      ],
    ] as const)(
      '%s: never a server error; where the gateway must walk the body, a clear 400 and nothing charged',
      async (family, path, body) => {
        await settle(t);
        const before = await quotaOf(t, userId);
        const deep = '['.repeat(100_000) + ']'.repeat(100_000);
        const route = ROUTES.find((r) => r.family === family)!;
        const res = await fetch(t.url + path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'accept-language': 'en',
            ...route.header(keys.good),
          },
          body: body(deep),
        });
        // OpenAI and Anthropic bodies go to a channel of their own format as they came (nothing walks
        // them); the Gemini adapter builds its body again, which walks it.
        if (family === 'openai' || family === 'anthropic') {
          expect(res.status).toBeLessThan(500);
          return;
        }
        expect(res.status).toBe(400);
        messageOf(family, (await res.json()) as Wire);
        await settle(t);
        expect(await quotaOf(t, userId)).toBe(before);
      },
    );
  });

  describe('realtime upgrade', () => {
    const refusal = (query: string, headers: Record<string, string>) =>
      new Promise<{ status: number; message: string }>((resolve, reject) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/realtime${query}`, {
          headers: { 'accept-language': 'en', ...headers },
        });
        ws.once('open', () => {
          ws.terminate();
          reject(new Error('upgraded'));
        });
        ws.once('unexpected-response', (_req, res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              message: (JSON.parse(text) as { error: { message: string } }).error.message,
            }),
          );
        });
        ws.once('error', reject);
      });

    it.each(
      KEY_STATES.flatMap(([state, status, message]) =>
        ['?model=gpt-4o-realtime', ''].map((q) => [state, q, status, message] as const),
      ),
    )('key %s (query "%s") → %s before any upgrade', async (state, query, status, message) => {
      const res = await refusal(query, keys[state] ? { authorization: `Bearer ${keys[state]}` } : {});
      expect(res).toEqual({ status, message });
    });

    it('a working key without a model is 400', async () => {
      const res = await refusal('', { authorization: `Bearer ${keys.good}` });
      expect(res.status).toBe(400);
    });
  });
});
