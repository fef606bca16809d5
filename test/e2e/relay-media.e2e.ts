import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { toFile } from 'openai/uploads';
import request from 'supertest';
import { DEFAULT_MODEL_RATIO } from '../../server/src/modules/option/default-prices';
import { textTokens } from '../../server/src/modules/relay/usage';
import { DEFAULT_REPLY, MockUpstream } from '../mocks/mock-upstream';
import { LogRow, logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

const RERANK_MODEL = 'jina-reranker-v2-base-multilingual';
/** QuotaPerUnit 500000 × dall-e-3's 0.04 USD. */
const DALLE3_IMAGE = 20_000;

/**
 * The relay beyond chat: embeddings, audio (transcription upload, speech bytes), images, moderations,
 * rerank, the Responses API, and Gemini-format clients served by an OpenAI channel; each billed.
 */
describe('relay media and other endpoints', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ ...DEFAULT_MODEL_RATIO, 'omni-moderation-latest': 0.1, [RERANK_MODEL]: 0.05 }),
    );
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models:
        'gpt-4o,text-embedding-3-small,whisper-1,tts-1,dall-e-3,omni-moderation-latest,gemini-2.0-flash',
    });
    await makeChannel(t, { type: 38, base_url: mock.url, models: RERANK_MODEL });
    key = (await makeToken(t, user.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = (k = key) => new OpenAI({ apiKey: k, baseURL: `${t.url}/v1`, maxRetries: 0 });

  /** The consume logs (type 2) of `model` once the ledger flushed. */
  const consumeLogs = async (model: string, userId = user.userId!): Promise<LogRow[]> => {
    await settle(t);
    return (await logsOf(t, userId)).filter((l) => l.type === 2 && l.model_name === model);
  };

  it('relays embeddings through the SDK and bills the prompt tokens', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const res = await openai().embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello world [[usage=5000,0]]',
    });
    expect(res.data).toHaveLength(1);
    expect(res.data[0].embedding).toHaveLength(1536);
    expect(res.usage).toMatchObject({ prompt_tokens: 5000 });
    expect(mock.last!.path).toBe('/v1/embeddings');

    const batch = await openai().embeddings.create({
      model: 'text-embedding-3-small',
      input: ['one', 'two', 'three'],
      dimensions: 8,
    });
    expect(batch.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(batch.data[0].embedding).toHaveLength(8);

    const logs = await consumeLogs('text-embedding-3-small');
    expect(logs).toHaveLength(2);
    // 5000 × 0.01
    expect(logs[0]).toMatchObject({ prompt_tokens: 5000, completion_tokens: 0, quota: 50 });
    expect(logs[1].quota).toBeGreaterThan(0);
    expect(await quotaOf(t, user.userId!)).toBe(before - 50 - logs[1].quota);
  });

  it('uploads an audio file for transcription: the upstream gets the same bytes and the model', async () => {
    const bytes = Buffer.alloc(48_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    const file = await toFile(bytes, 'speech.mp3', { type: 'audio/mpeg' });
    const res = await openai().audio.transcriptions.create({ file, model: 'whisper-1', language: 'en' });
    expect(res.text).toBe(DEFAULT_REPLY);

    const up = mock.last!;
    expect(up.path).toBe('/v1/audio/transcriptions');
    expect(up.credential).toBe('sk-upstream-key');
    expect(up.multipart).toBeDefined();
    expect(up.multipart!.fields).toMatchObject({ model: 'whisper-1', language: 'en' });
    expect(up.multipart!.files).toHaveLength(1);
    expect(up.multipart!.files[0]).toMatchObject({
      field: 'file',
      filename: 'speech.mp3',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });

    const text = await openai().audio.transcriptions.create({
      file: await toFile(bytes, 'speech.mp3'),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(String(text).trim()).toBe(DEFAULT_REPLY);

    // Both answers carry the same transcript; both are billed (whisper-1 is priced by ModelRatio 15).
    const logs = await consumeLogs('whisper-1');
    expect(logs).toHaveLength(2);
    for (const log of logs) {
      expect(log.completion_tokens + log.prompt_tokens).toBeGreaterThan(0);
      expect(log.quota).toBeGreaterThan(0);
    }
  });

  it('generates images at the fixed price: dall-e-3 is 20000 per image, n=2 → 40000', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const res = await openai().images.generate({ model: 'dall-e-3', prompt: 'a red fox in the snow', n: 2 });
    expect(res.data).toHaveLength(2);
    for (const img of res.data!) expect(img.url).toEqual(expect.any(String));
    expect(mock.last!.body).toMatchObject({ model: 'dall-e-3', n: 2, prompt: 'a red fox in the snow' });

    const logs = await consumeLogs('dall-e-3');
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBe(2 * DALLE3_IMAGE);
    expect(logs[0].other).toMatchObject({ model_price: 0.04 });
    expect(await quotaOf(t, user.userId!)).toBe(before - 2 * DALLE3_IMAGE);
  });

  it('refuses n images the balance cannot pay for, before calling the upstream', async () => {
    const poor = await makeUser(t, root);
    await setQuota(t, poor.userId!, 30_000);
    const k = (await makeToken(t, poor.userId!)).key;
    const calls = mock.requests.length;
    await expect(
      openai(k).images.generate({ model: 'dall-e-3', prompt: 'two foxes', n: 2 }),
    ).rejects.toMatchObject({ status: 403 });
    expect(mock.requests.length).toBe(calls);
    await settle(t);
    expect(await quotaOf(t, poor.userId!)).toBe(30_000);
  });

  it('returns speech as audio bytes (audio/mpeg) and bills the input text', async () => {
    const input = 'Hello there, this is the gateway speaking.';
    const res = await openai().audio.speech.create({ model: 'tts-1', voice: 'alloy', input });
    expect(res.headers.get('content-type')).toContain('audio/mpeg');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(1024 + 32 * input.length);
    expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');

    const logs = await consumeLogs('tts-1');
    expect(logs).toHaveLength(1);
    const tokens = textTokens(input);
    expect(logs[0]).toMatchObject({
      prompt_tokens: tokens,
      completion_tokens: 0,
      quota: Math.round(tokens * 7.5),
    });
  });

  it('relays moderations and bills them', async () => {
    const res = await openai().moderations.create({
      model: 'omni-moderation-latest',
      input: 'a perfectly friendly sentence',
    });
    expect(res.results).toHaveLength(1);
    expect(res.results[0].flagged).toBe(false);
    expect(mock.last!.path).toBe('/v1/moderations');
    const logs = await consumeLogs('omni-moderation-latest');
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBeGreaterThan(0);
  });

  it('relays rerank (Jina channel) and bills the reported tokens', async () => {
    const res = await request(t.url)
      .post('/v1/rerank')
      .set('Authorization', `Bearer ${key}`)
      .send({
        model: RERANK_MODEL,
        query: 'which one is a fruit? [[usage=1000,0]]',
        documents: ['apple', 'car', 'banana'],
        top_n: 2,
      });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(2);
    expect(res.body.results[0]).toMatchObject({ index: 0, relevance_score: expect.any(Number) });
    expect(mock.last!.path).toBe('/v1/rerank');
    expect(mock.last!.body).toMatchObject({
      model: RERANK_MODEL,
      top_n: 2,
      documents: ['apple', 'car', 'banana'],
    });
    const logs = await consumeLogs(RERANK_MODEL);
    expect(logs).toHaveLength(1);
    // 1000 × 0.05
    expect(logs[0]).toMatchObject({ prompt_tokens: 1000, quota: 50 });
  });

  it('relays the Responses API through the SDK, non-stream and stream, billed from the usage', async () => {
    const res = await openai().responses.create({ model: 'gpt-4o', input: 'hi [[usage=20,6]]' });
    expect(res.output_text).toBe(DEFAULT_REPLY);
    expect(res.model).toBe('gpt-4o');
    expect(res.usage).toMatchObject({ input_tokens: 20, output_tokens: 6 });
    expect(mock.last!.path).toBe('/v1/responses');

    const stream = await openai().responses.create({
      model: 'gpt-4o',
      input: 'hi [[usage=30,8]]',
      stream: true,
    });
    let text = '';
    let completed: OpenAI.Responses.Response | null = null;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text).toBe(DEFAULT_REPLY);
    expect(completed).not.toBeNull();
    expect(completed!.usage).toMatchObject({ input_tokens: 30, output_tokens: 8 });
    expect(mock.last!.path).toBe('/v1/responses');
    expect(mock.last!.body).toMatchObject({ stream: true });

    const logs = await consumeLogs('gpt-4o');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({
      prompt_tokens: 20,
      completion_tokens: 6,
      quota: Math.round((20 + 6 * 4) * 1.25),
      is_stream: false,
    });
    expect(logs[1]).toMatchObject({
      prompt_tokens: 30,
      completion_tokens: 8,
      quota: Math.round((30 + 8 * 4) * 1.25),
      is_stream: true,
    });
  });

  it('answers a Gemini-format client from an OpenAI channel with a Gemini-shaped body', async () => {
    const res = await request(t.url)
      .post('/v1beta/models/gemini-2.0-flash:generateContent')
      .set('x-goog-api-key', key)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi [[usage=12,5]]' }] }] });
    expect(res.status).toBe(200);
    expect(mock.last!.path).toBe('/v1/chat/completions');
    expect(mock.last!.body.model).toBe('gemini-2.0-flash');
    expect(res.body.candidates).toHaveLength(1);
    expect(res.body.candidates[0].content).toMatchObject({ role: 'model', parts: [{ text: DEFAULT_REPLY }] });
    expect(res.body.usageMetadata).toMatchObject({
      promptTokenCount: 12,
      candidatesTokenCount: 5,
      totalTokenCount: 17,
    });

    const stream = await fetch(`${t.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(stream.status).toBe(200);
    let text = '';
    for (const line of (await stream.text()).split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const chunk = JSON.parse(line.slice(6)) as {
        candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>;
      };
      for (const p of chunk.candidates?.[0]?.content?.parts ?? []) text += p.text ?? '';
    }
    expect(text).toBe(DEFAULT_REPLY);
    expect(mock.last!.body).toMatchObject({ model: 'gemini-2.0-flash', stream: true });

    const logs = await consumeLogs('gemini-2.0-flash');
    expect(logs).toHaveLength(2);
    // (12 + 5 × 4) × 0.05 = 1.6
    expect(logs[0]).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, quota: 2 });
  });

  it('answers 400 to a malformed multipart body without calling the upstream', async () => {
    const calls = mock.requests.length;
    const res = await request(t.url)
      .post('/v1/audio/transcriptions')
      .set('Authorization', `Bearer ${key}`)
      .set('content-type', 'multipart/form-data; boundary=----gatehouse-boundary')
      .send('this is not a multipart body at all');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error' });
    const noBoundary = await request(t.url)
      .post('/v1/audio/transcriptions')
      .set('Authorization', `Bearer ${key}`)
      .set('content-type', 'multipart/form-data')
      .send('--x\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--x--\r\n');
    expect(noBoundary.status).toBe(400);
    expect(mock.requests.length).toBe(calls);
  });
});
