/**
 * Google Gemini (type 24), native API with `x-goog-api-key` auth.
 *  - chat: `{base}/{version}/models/{model}:generateContent`, or
 *    `:streamGenerateContent?alt=sse` when streaming. The version comes from the settings (per model,
 *    then `default`, then v1beta). Safety settings from the settings fill a body that has none; the
 *    thinking adapter (thinking.ts) may rewrite the model and generationConfig.thinkingConfig.
 *  - embeddings: the body is a batchEmbedContents body; `:batchEmbedContents`, each request's model
 *    set to the upstream model.
 *  - image models (`gemini.supported_imagine_models`): chat asks for image output
 *    (generationConfig.responseModalities ["TEXT", "IMAGE"] unless the body sets its own); inline
 *    images of the answer become markdown data-URL images in the OpenAI message (formats/gemini).
 *    `/v1/images/generations` ({prompt, n}) becomes a generateContent call with the prompt as the user
 *    turn and the images come back as `data: [{b64_json}]` (usageMetadata kept for billing); other
 *    models refuse the images endpoint with 400.
 */
import type { AdapterRequest, JsonObject, ProviderAdapter, UpstreamCall } from '../../types';
import {
  arr,
  asObj,
  isObj,
  joinUrl,
  json,
  type JsonRecord,
  num,
  str,
  unsupportedMode,
  upstreamErrorMessage,
} from '../util';
import { RelayError, relayFail } from '../../errors';
import { copyObject } from '../../formats/json';
import { geminiSafetySettings } from './safety';
import { geminiThinking } from './thinking';

const DEFAULT_VERSION = 'v1beta';

function bareModel(model: string): string {
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}

function apiVersion(req: AdapterRequest, upstreamModel: string): string {
  const table = req.settings.geminiVersionSettings;
  return table[req.model] ?? table[upstreamModel] ?? table.default ?? DEFAULT_VERSION;
}

/** Whether `model` (bare name, or the requested one) is listed in gemini.supported_imagine_models. */
export function isImagineModel(req: AdapterRequest, model: string): boolean {
  const list = req.settings.geminiSupportedImagineModels;
  return Array.isArray(list) && (list.includes(model) || list.includes(bareModel(req.model)));
}

const IMAGE_MODALITIES = ['TEXT', 'IMAGE'];

function withImageOutput(body: JsonObject): JsonObject {
  const config = asObj(body.generationConfig);
  if (config.responseModalities !== undefined || config.response_modalities !== undefined) return body;
  return { ...body, generationConfig: json({ ...config, responseModalities: IMAGE_MODALITIES }) };
}

/** An OpenAI images request {prompt, ...} → a generateContent body asking for image output. */
function imagesBody(req: AdapterRequest): JsonObject {
  const prompt = str(req.body.prompt);
  if (prompt === undefined || prompt.trim() === '')
    throw relayFail(400, 'relay_bad_body', { reason: 'prompt is required' });
  const body: JsonObject = {
    contents: [{ role: 'user', parts: [{ text: prompt }] }],
    generationConfig: { responseModalities: IMAGE_MODALITIES },
  };
  const safety = geminiSafetySettings(req.settings.geminiSafetySettings);
  if (safety.length > 0) body.safetySettings = safety;
  return body;
}

/** A generateContent answer → an OpenAI images answer: every inline image as b64_json. */
export function geminiImagesToOpenAI(body: unknown, created: number): JsonObject {
  const answer = asObj(body);
  const data: JsonRecord[] = [];
  let text = '';
  for (const candidate of arr(answer.candidates)) {
    for (const part of arr(asObj(asObj(candidate).content).parts)) {
      const p = asObj(part);
      const inline = asObj(p.inlineData ?? p.inline_data);
      const b64 = str(inline.data);
      if (b64 !== undefined && (str(inline.mimeType ?? inline.mime_type) ?? 'image/').startsWith('image/'))
        data.push({ b64_json: b64 });
      else if (typeof p.text === 'string' && p.thought !== true) text += p.text;
    }
  }
  if (data.length === 0) {
    const reason = text.trim() || str(asObj(answer.promptFeedback).blockReason) || 'no image in the answer';
    throw new RelayError(
      502,
      null,
      {},
      `Gemini returned no image: ${reason.slice(0, 500)}`,
      'upstream_error',
    );
  }
  if (text.trim() !== '') for (const item of data) item.revised_prompt = text.trim();
  const out: JsonObject = { created, data };
  if (answer.usageMetadata !== undefined) out.usageMetadata = json(answer.usageMetadata);
  return out;
}

function chatBody(req: AdapterRequest, thinkingConfig: JsonRecord | null, model: string): JsonObject {
  let body: JsonObject = copyObject(req.body);
  if (isImagineModel(req, model)) body = withImageOutput(body);
  if (body.safetySettings === undefined) {
    const safety = geminiSafetySettings(req.settings.geminiSafetySettings);
    if (safety.length > 0) body.safetySettings = safety;
  }
  if (thinkingConfig) {
    const config = asObj(body.generationConfig);
    body.generationConfig = json({
      ...config,
      thinkingConfig: { ...asObj(config.thinkingConfig), ...thinkingConfig },
    });
  }
  return body;
}

function embeddingsBody(req: AdapterRequest, model: string): JsonObject {
  // An embedContent body ({content, ...}) is sent as a batch of one (the answer is unwrapped again).
  if (!Array.isArray(req.body.requests)) return { requests: [{ ...req.body, model: `models/${model}` }] };
  const requests = arr(req.body.requests).map((item) =>
    isObj(item) ? { ...item, model: `models/${model}` } : item,
  );
  return { ...req.body, requests: json(requests) };
}

/** The Gemini adapter; `clock` (ms since the epoch) dates images answers. */
export function createGeminiAdapter(clock: () => number = Date.now): ProviderAdapter {
  return {
    name: 'gemini',
    format: 'gemini',
    modes: ['chat', 'embeddings', 'images'],

    buildRequest(req): UpstreamCall {
      if (req.mode === 'images') return imagesCall(req);
      if (req.mode !== 'chat' && req.mode !== 'embeddings') throw unsupportedMode('gemini', req.mode);
      const maxOutputTokens = num(asObj(req.body.generationConfig).maxOutputTokens);
      const thinking =
        req.mode === 'chat'
          ? geminiThinking(bareModel(req.model), maxOutputTokens, req.settings)
          : { model: bareModel(req.model), thinkingConfig: null };
      const model = thinking.model;

      const action =
        req.mode === 'embeddings'
          ? ':batchEmbedContents'
          : req.stream
            ? ':streamGenerateContent?alt=sse'
            : ':generateContent';
      const body =
        req.mode === 'embeddings'
          ? embeddingsBody(req, model)
          : chatBody(req, thinking.thinkingConfig, model);
      return {
        method: 'POST',
        url: joinUrl(
          req.channel.baseUrl,
          `/${apiVersion(req, model)}/models/${encodeURIComponent(model)}${action}`,
        ),
        headers: { 'x-goog-api-key': req.channel.key, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      };
    },

    convertResponse(body, req) {
      if (req.mode === 'images') return geminiImagesToOpenAI(body, Math.floor(clock() / 1000));
      return body as JsonObject;
    },

    errorMessage: upstreamErrorMessage,
  };
}

export const geminiAdapter: ProviderAdapter = createGeminiAdapter();

function imagesCall(req: AdapterRequest): UpstreamCall {
  const model = bareModel(req.model);
  if (!isImagineModel(req, model)) throw relayFail(400, 'relay_mode_unsupported');
  return {
    method: 'POST',
    url: joinUrl(
      req.channel.baseUrl,
      `/${apiVersion(req, model)}/models/${encodeURIComponent(model)}:generateContent`,
    ),
    headers: { 'x-goog-api-key': req.channel.key, 'Content-Type': 'application/json' },
    body: JSON.stringify(imagesBody(req)),
  };
}
