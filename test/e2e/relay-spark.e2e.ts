import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { WebSocketServer } from 'ws';
import { logsOf, makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * iFlytek Spark (type 18) over its websocket protocol: a local Spark-like server checks the signed URL,
 * reads the request frame and answers in frames; the gateway serves OpenAI clients from it.
 */
describe('iFlytek Spark channel', () => {
  let t: TestApp;
  let wss: WebSocketServer;
  let key: string;
  let rootId: number;
  const seen: Array<{ url: string; frame: object }> = [];

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    wss.on('connection', (socket, req) => {
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as {
          payload: { message: { text: Array<{ content: string }> } };
        };
        seen.push({ url: req.url ?? '', frame });
        const text = frame.payload.message.text.at(-1)?.content ?? '';
        if (text.includes('[[fail]]')) {
          socket.send(
            JSON.stringify({
              header: { code: 10013, message: 'input content is not compliant', sid: 's1', status: 2 },
            }),
          );
          return;
        }
        const words = ['Hello', ' from', ' Spark.'];
        words.forEach((w, i) =>
          socket.send(
            JSON.stringify({
              header: { code: 0, message: 'Success', sid: 's1', status: i === words.length - 1 ? 2 : 1 },
              payload: {
                choices: {
                  status: i === words.length - 1 ? 2 : 1,
                  seq: i,
                  text: [{ content: w, role: 'assistant', index: 0 }],
                },
                ...(i === words.length - 1
                  ? { usage: { text: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } } }
                  : {}),
              },
            }),
          ),
        );
      });
    });
    t = await startApp();
    const root = await setupRoot(t);
    rootId = root.userId!;
    await setQuota(t, rootId, 1_000_000);
    await putOption(root, 'ModelRatio', JSON.stringify({ 'spark-test': 1 }));
    await makeChannel(t, {
      type: 18,
      base_url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
      key: 'app-id|api-secret|api-key',
      other: 'v3.5',
      models: 'spark-test',
    });
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((r) => wss?.close(r));
  });

  const client = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });

  it('answers a chat request through signed websocket frames and bills the reported usage', async () => {
    const res = await client().chat.completions.create({
      model: 'spark-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.choices[0].message.content).toBe('Hello from Spark.');
    const { url, frame } = seen.at(-1)!;
    expect(url.startsWith('/v3.5/chat?')).toBe(true);
    const q = new URLSearchParams(url.split('?')[1]);
    expect(Buffer.from(q.get('authorization')!, 'base64').toString()).toContain('api_key="api-key"');
    expect(frame).toMatchObject({
      header: { app_id: 'app-id' },
      parameter: { chat: { domain: 'generalv3.5' } },
    });
    await settle(t);
    const log = (await logsOf(t, rootId)).at(-1)!;
    expect(log).toMatchObject({
      prompt_tokens: 12,
      completion_tokens: 3,
      quota: 12 + 3,
      model_name: 'spark-test',
    });
  });

  it('streams the frames as OpenAI chunks', async () => {
    const stream = await client().chat.completions.create({
      model: 'spark-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const parts: string[] = [];
    for await (const c of stream) if (c.choices[0]?.delta?.content) parts.push(c.choices[0].delta.content);
    expect(parts).toEqual(['Hello', ' from', ' Spark.']);
  });

  it('turns an error frame into an error answer without charging', async () => {
    await expect(
      client().chat.completions.create({
        model: 'spark-test',
        messages: [{ role: 'user', content: '[[fail]]' }],
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('not compliant') });
    await settle(t);
    expect((await logsOf(t, rootId)).at(-1)).toMatchObject({ type: 5, quota: 0 });
  });
});
