/**
 * Anthropic (type 14), native Messages API: POST `{base}/v1/messages` (a base already ending in /v1
 * is not doubled) with `x-api-key`, `anthropic-version: 2023-06-01` and the per-model extra headers
 * of the settings (e.g. `anthropic-beta`). A body without max_tokens gets the model's default from
 * the settings (then their `default` entry, then 8192). With the thinking adapter on,
 * `<model>-thinking` is served by `<model>` with extended thinking (see thinking.ts).
 */
import type { AdapterRequest, JsonObject, ProviderAdapter, UpstreamCall } from '../../types';
import { apiRoot } from '../openai';
import { num, unsupportedMode, upstreamErrorMessage } from '../util';
import { applyClaudeThinking, claudeUpstreamModel } from './thinking';

export const ANTHROPIC_VERSION = '2023-06-01';
const FALLBACK_MAX_TOKENS = 8192;

function defaultMaxTokens(req: AdapterRequest, upstreamModel: string): number {
  const table = req.settings.claudeDefaultMaxTokens;
  return table[req.model] ?? table[upstreamModel] ?? table.default ?? FALLBACK_MAX_TOKENS;
}

function buildBody(req: AdapterRequest, upstreamModel: string): JsonObject {
  const maxTokens = num(req.body.max_tokens) ?? defaultMaxTokens(req, upstreamModel);
  const body: JsonObject = { ...req.body, model: upstreamModel, max_tokens: maxTokens };
  if (req.stream) body.stream = true;
  return upstreamModel === req.model
    ? body
    : applyClaudeThinking(body, maxTokens, req.settings.claudeThinkingBudgetPercentage);
}

/**
 * The client's bytes (with what planning added) when the adapter changed nothing of the planned body:
 * same model, the client's own max_tokens. Coding agents send hundreds of KiB per call; serialising
 * them again costs far more than the rest of the relay.
 */
function rawOrJson(req: AdapterRequest, body: JsonObject): string | Uint8Array {
  return req.rawBody && body.model === req.model && body.max_tokens === req.body.max_tokens
    ? req.rawBody
    : JSON.stringify(body);
}

export const anthropicAdapter: ProviderAdapter = {
  name: 'anthropic',
  format: 'anthropic',
  modes: ['chat'],

  buildRequest(req): UpstreamCall {
    if (req.mode !== 'chat') throw unsupportedMode('anthropic', req.mode);
    const upstreamModel = claudeUpstreamModel(req.model, req.settings);
    const modelHeaders = req.settings.claudeModelHeaders;
    return {
      method: 'POST',
      url: `${apiRoot(req.channel.baseUrl, '/v1')}/messages`,
      headers: {
        'x-api-key': req.channel.key,
        'anthropic-version': ANTHROPIC_VERSION,
        'Content-Type': 'application/json',
        ...(modelHeaders[req.model] ?? modelHeaders[upstreamModel] ?? {}),
      },
      body: rawOrJson(req, buildBody(req, upstreamModel)),
    };
  },

  errorMessage: upstreamErrorMessage,
};
