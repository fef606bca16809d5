import type { JsonObject } from '../../types';
import { adapterRequest, bodyOf, type RequestOverrides } from '../testing';
import { geminiAdapter } from '.';
import { STANDARD_HARM_CATEGORIES } from './safety';

const call = (overrides: RequestOverrides = {}) =>
  geminiAdapter.buildRequest(
    adapterRequest({
      model: 'gemini-2.5-flash',
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      ...overrides,
      channel: { type: 24, baseUrl: 'https://generativelanguage.googleapis.com', key: 'g-key' },
    }),
  );
const body = (overrides: RequestOverrides = {}) => bodyOf(call(overrides)) as JsonObject;
const BASE = 'https://generativelanguage.googleapis.com';

describe('gemini adapter', () => {
  it('builds generateContent and streamGenerateContent URLs', () => {
    expect(call().url).toBe(`${BASE}/v1beta/models/gemini-2.5-flash:generateContent`);
    expect(call({ stream: true }).url).toBe(
      `${BASE}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    );
    expect(call({ model: 'models/gemini-2.0-flash' }).url).toBe(
      `${BASE}/v1beta/models/gemini-2.0-flash:generateContent`,
    );
  });

  it('takes the API version from the settings', () => {
    expect(call({ settings: { geminiVersionSettings: { default: 'v1' } } }).url).toContain('/v1/models/');
    expect(
      call({ settings: { geminiVersionSettings: { default: 'v1', 'gemini-2.5-flash': 'v1alpha' } } }).url,
    ).toContain('/v1alpha/models/');
  });

  it('authenticates with x-goog-api-key', () => {
    expect(call().headers).toEqual({ 'x-goog-api-key': 'g-key', 'Content-Type': 'application/json' });
  });

  it('calls batchEmbedContents with the upstream model in every request', () => {
    const request = call({
      mode: 'embeddings',
      model: 'text-embedding-004',
      body: { requests: [{ model: 'models/alias', content: { parts: [{ text: 'a' }] } }] },
    });
    expect(request.url).toBe(`${BASE}/v1beta/models/text-embedding-004:batchEmbedContents`);
    expect(bodyOf(request)).toEqual({
      requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } }],
    });
  });

  describe('safety settings', () => {
    it('applies the default to the five standard categories, named entries winning', () => {
      const sent = body({
        settings: { geminiSafetySettings: { default: 'OFF', HARM_CATEGORY_HARASSMENT: 'BLOCK_NONE' } },
      });
      expect(sent.safetySettings).toEqual(
        STANDARD_HARM_CATEGORIES.map((category) => ({
          category,
          threshold: category === 'HARM_CATEGORY_HARASSMENT' ? 'BLOCK_NONE' : 'OFF',
        })),
      );
    });

    it('keeps only the named categories without a default, and the body’s own settings', () => {
      expect(
        body({ settings: { geminiSafetySettings: { HARM_CATEGORY_HATE_SPEECH: 'BLOCK_NONE' } } })
          .safetySettings,
      ).toEqual([{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }]);
      const own = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' }];
      expect(
        body({
          body: { contents: [], safetySettings: own },
          settings: { geminiSafetySettings: { default: 'OFF' } },
        }).safetySettings,
      ).toEqual(own);
      expect(body().safetySettings).toBeUndefined();
    });
  });

  describe('thinking adapter', () => {
    const settings = { geminiThinkingAdapterEnabled: true, geminiThinkingBudgetPercentage: 0.5 };
    const thinking = (model: string, generationConfig: Record<string, number> = {}) => {
      const request = call({ model, settings, body: { contents: [], generationConfig } });
      return {
        url: request.url,
        config: (bodyOf(request) as { generationConfig: JsonObject }).generationConfig,
      };
    };

    it('derives the budget from maxOutputTokens', () => {
      const { url, config } = thinking('gemini-2.5-flash-thinking', {
        maxOutputTokens: 8000,
        temperature: 1,
      });
      expect(url).toContain('/models/gemini-2.5-flash:generateContent');
      expect(config).toEqual({
        maxOutputTokens: 8000,
        temperature: 1,
        thinkingConfig: { includeThoughts: true, thinkingBudget: 4000 },
      });
    });

    it('uses an explicit budget, omits one that is too large or unknown', () => {
      expect(thinking('gemini-2.5-pro-thinking-1024').config.thinkingConfig).toEqual({
        includeThoughts: true,
        thinkingBudget: 1024,
      });
      expect(thinking('gemini-2.5-pro-thinking-30000').config.thinkingConfig).toEqual({
        includeThoughts: true,
      });
      expect(thinking('gemini-2.5-pro-thinking', { maxOutputTokens: 65536 }).config.thinkingConfig).toEqual({
        includeThoughts: true,
      });
      expect(thinking('gemini-2.5-pro-thinking').config.thinkingConfig).toEqual({ includeThoughts: true });
    });

    it('turns thinking off for -nothinking', () => {
      const { url, config } = thinking('gemini-2.5-flash-nothinking');
      expect(url).toContain('/models/gemini-2.5-flash:generateContent');
      expect(config.thinkingConfig).toEqual({ thinkingBudget: 0 });
    });

    it('does nothing when the adapter is off', () => {
      const request = call({ model: 'gemini-2.5-flash-thinking', body: { contents: [] } });
      expect(request.url).toContain('/models/gemini-2.5-flash-thinking:generateContent');
      expect((bodyOf(request) as JsonObject).generationConfig).toBeUndefined();
    });
  });

  it('extracts Gemini error messages', () => {
    const error = '{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}';
    expect(geminiAdapter.errorMessage?.(400, error)).toBe('API key not valid.');
    expect(geminiAdapter.errorMessage?.(429, `[${error}]`)).toBe('API key not valid.');
  });
});

describe('gemini image models (gemini.supported_imagine_models)', () => {
  const IMAGINE = { geminiSupportedImagineModels: ['gemini-2.0-flash-exp-image-generation'] };
  const imageModel = 'gemini-2.0-flash-exp-image-generation';

  it('asks listed models for image output, keeping a body’s own modalities, and leaves others alone', () => {
    expect(body({ model: imageModel, settings: IMAGINE }).generationConfig).toEqual({
      responseModalities: ['TEXT', 'IMAGE'],
    });
    expect(
      body({
        model: imageModel,
        settings: IMAGINE,
        body: { contents: [], generationConfig: { responseModalities: ['IMAGE'], temperature: 1 } },
      }).generationConfig,
    ).toEqual({ responseModalities: ['IMAGE'], temperature: 1 });
    expect(body({ settings: IMAGINE }).generationConfig).toBeUndefined();
  });

  it('turns an images request into generateContent and the inline images into b64_json', () => {
    const req = adapterRequest({
      mode: 'images',
      model: imageModel,
      body: { model: imageModel, prompt: 'a red apple', n: 1 },
      settings: IMAGINE,
      channel: { type: 24, baseUrl: BASE, key: 'g-key' },
    });
    const images = geminiAdapter.buildRequest(req);
    expect(images.url).toBe(`${BASE}/v1beta/models/${imageModel}:generateContent`);
    expect(bodyOf(images)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a red apple' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    const answer = geminiAdapter.convertResponse!(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Here it is.' },
                { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1290 },
      },
      req,
    );
    expect(answer.data).toEqual([{ b64_json: 'iVBORw0KGgo=', revised_prompt: 'Here it is.' }]);
    expect(typeof answer.created).toBe('number');
    expect(answer.usageMetadata).toEqual({ promptTokenCount: 4, candidatesTokenCount: 1290 });
    expect(() =>
      geminiAdapter.convertResponse!(
        { candidates: [{ content: { parts: [{ text: 'I cannot draw that.' }] } }] },
        req,
      ),
    ).toThrow(/no image.*I cannot draw that/);
  });

  it('refuses the images endpoint for unlisted models and a missing prompt with 400', () => {
    const images = (model: string, prompt?: string) => () =>
      geminiAdapter.buildRequest(
        adapterRequest({
          mode: 'images',
          model,
          body: { prompt },
          settings: IMAGINE,
          channel: { type: 24, baseUrl: BASE },
        }),
      );
    expect(images('gemini-2.5-flash', 'x')).toThrow(expect.objectContaining({ status: 400 }));
    expect(images(imageModel)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
