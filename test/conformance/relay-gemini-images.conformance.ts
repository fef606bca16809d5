import OpenAI from 'openai';
import { MOCK_PNG_BASE64 } from '../mocks/gemini';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * `gemini.supported_imagine_models`: listed Gemini models are asked for image output
 * (generationConfig.responseModalities TEXT+IMAGE); their inline images come back as markdown
 * data-URL images in chat answers (plain and streamed) and as b64_json from /v1/images/generations.
 * The mock upstream refuses image output for models without "image" in their name, as Gemini does.
 */
const REPLY = 'Hello from the mock upstream.';
const DEFAULT_IMAGE_MODEL = 'gemini-2.0-flash-exp-image-generation';
const OTHER_IMAGE_MODEL = 'gemini-2.5-flash-image';
const TEXT_MODEL = 'gemini-2.0-flash';
const MODELS = [DEFAULT_IMAGE_MODEL, OTHER_IMAGE_MODEL, TEXT_MODEL];
const MARKDOWN_IMAGE = `![image](data:image/png;base64,${MOCK_PNG_BASE64})`;

describe('Gemini image models (gemini.supported_imagine_models)', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 1]))));
    await putOption(root, 'CompletionRatio', JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 2]))));
    await makeChannel(t, { type: 24, base_url: mock.url, key: 'g-mock-key', models: MODELS.join(',') });
    await setQuota(t, root.userId!, 1_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const lastLog = async () => (await logsOf(t, root.userId!)).at(-1)!;
  const user = (content: string) => [{ role: 'user' as const, content }];
  const modalities = () =>
    (mock.last?.body.generationConfig as { responseModalities?: unknown } | undefined)?.responseModalities;

  it('asks a listed model (the default list) for images and answers them as markdown data-URL images', async () => {
    await settle(t);
    const before = await quotaOf(t, root.userId!);
    const res = await openai().chat.completions.create({
      model: DEFAULT_IMAGE_MODEL,
      messages: user('draw an apple [[usage=20,5]]'),
    });
    expect(mock.last?.path).toBe(`/v1beta/models/${DEFAULT_IMAGE_MODEL}:generateContent`);
    expect(modalities()).toEqual(['TEXT', 'IMAGE']);
    expect(res.choices[0].message.content).toBe(`${REPLY}${MARKDOWN_IMAGE}`);
    expect(res.choices[0].finish_reason).toBe('stop');
    await settle(t);
    expect(await lastLog()).toMatchObject({ type: 2, prompt_tokens: 20, completion_tokens: 5, quota: 30 });
    expect(await quotaOf(t, root.userId!)).toBe(before - 30);
  });

  it('streams the text, then the image as one markdown delta', async () => {
    const stream = await openai().chat.completions.create({
      model: DEFAULT_IMAGE_MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: user('draw an apple [[usage=20,5]]'),
    });
    const parts: string[] = [];
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content;
      if (content) parts.push(content);
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(mock.last?.path).toBe(`/v1beta/models/${DEFAULT_IMAGE_MODEL}:streamGenerateContent`);
    expect(modalities()).toEqual(['TEXT', 'IMAGE']);
    expect(parts.at(-1)).toBe(MARKDOWN_IMAGE);
    expect(parts.join('')).toBe(`${REPLY}${MARKDOWN_IMAGE}`);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 5 });
  });

  it('answers /v1/images/generations with b64_json and bills the reported usage', async () => {
    await settle(t);
    const before = await quotaOf(t, root.userId!);
    const res = await openai().images.generate({
      model: DEFAULT_IMAGE_MODEL,
      prompt: 'a red apple [[usage=8,1290]]',
    });
    expect(res.data?.[0]?.b64_json).toBe(MOCK_PNG_BASE64);
    expect(res.data?.[0]?.revised_prompt).toBe(REPLY);
    expect(mock.last?.path).toBe(`/v1beta/models/${DEFAULT_IMAGE_MODEL}:generateContent`);
    expect(mock.last?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a red apple [[usage=8,1290]]' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    await settle(t);
    expect(await lastLog()).toMatchObject({
      type: 2,
      model_name: DEFAULT_IMAGE_MODEL,
      prompt_tokens: 8,
      completion_tokens: 1290,
    });
    expect(await quotaOf(t, root.userId!)).toBe(before - (8 + 2 * 1290));
  });

  it('follows the option: unlisted models get no image output and refuse the images endpoint with 400', async () => {
    await putOption(root, 'gemini.supported_imagine_models', JSON.stringify([OTHER_IMAGE_MODEL]));
    try {
      const plain = await openai().chat.completions.create({
        model: DEFAULT_IMAGE_MODEL,
        messages: user('hi'),
      });
      expect(modalities()).toBeUndefined();
      expect(plain.choices[0].message.content).toBe(REPLY);

      const listed = await openai().chat.completions.create({
        model: OTHER_IMAGE_MODEL,
        messages: user('hi'),
      });
      expect(modalities()).toEqual(['TEXT', 'IMAGE']);
      expect(listed.choices[0].message.content).toBe(`${REPLY}${MARKDOWN_IMAGE}`);

      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const calls = mock.requests.length;
      await expect(openai().images.generate({ model: TEXT_MODEL, prompt: 'an apple' })).rejects.toMatchObject(
        {
          status: 400,
        },
      );
      expect(mock.requests.length).toBe(calls);
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
    } finally {
      await putOption(
        root,
        'gemini.supported_imagine_models',
        JSON.stringify([DEFAULT_IMAGE_MODEL, 'gemini-2.0-flash-exp']),
      );
    }
  });

  it('passes the upstream refusal of image output through without charging (plain and images endpoint)', async () => {
    await putOption(root, 'gemini.supported_imagine_models', JSON.stringify([TEXT_MODEL]));
    try {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      await expect(
        openai().chat.completions.create({ model: TEXT_MODEL, messages: user('hi') }),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('does not support the requested response modalities'),
      });
      await expect(openai().images.generate({ model: TEXT_MODEL, prompt: 'an apple' })).rejects.toMatchObject(
        {
          status: 400,
          message: expect.stringContaining('does not support the requested response modalities'),
        },
      );
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      expect(await lastLog()).toMatchObject({ type: 5, quota: 0 });
    } finally {
      await putOption(
        root,
        'gemini.supported_imagine_models',
        JSON.stringify([DEFAULT_IMAGE_MODEL, 'gemini-2.0-flash-exp']),
      );
    }
  });
});
