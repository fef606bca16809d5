/**
 * Google Gemini (type 24), native API with `x-goog-api-key` auth.
 *  - chat: `{base}/{version}/models/{model}:generateContent`, or
 *    `:streamGenerateContent?alt=sse` when streaming. The version comes from the settings (per model,
 *    then `default`, then v1beta). Safety settings from the settings fill a body that has none; the
 *    thinking adapter (thinking.ts) may rewrite the model and generationConfig.thinkingConfig.
 *  - embeddings: the body is a batchEmbedContents body; `:batchEmbedContents`, each request's model
 *    set to the upstream model.
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
  unsupportedMode,
  upstreamErrorMessage,
} from '../util';
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

function chatBody(req: AdapterRequest, thinkingConfig: JsonRecord | null): JsonObject {
  const body: JsonObject = { ...req.body };
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
  if (!Array.isArray(req.body.requests)) return req.body;
  const requests = arr(req.body.requests).map((item) =>
    isObj(item) ? { ...item, model: `models/${model}` } : item,
  );
  return { ...req.body, requests: json(requests) };
}

export const geminiAdapter: ProviderAdapter = {
  name: 'gemini',
  format: 'gemini',
  modes: ['chat', 'embeddings'],

  buildRequest(req): UpstreamCall {
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
      req.mode === 'embeddings' ? embeddingsBody(req, model) : chatBody(req, thinking.thinkingConfig);
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

  errorMessage: upstreamErrorMessage,
};
