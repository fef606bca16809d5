/**
 * Google Vertex AI (channel type 41): Gemini and Claude models behind one service-account key.
 *
 * Vertex serves two wire formats, and `ProviderAdapter.format` is a single property, so there are two
 * adapters and the registry picks one per request with `vertexAdapterFor(model)`:
 *   - claude-* → vertexClaudeAdapter, format 'anthropic':
 *       POST …/publishers/anthropic/models/{model@version}:rawPredict (stream: :streamRawPredict),
 *       body = the Anthropic body without `model`, with anthropic_version "vertex-2023-10-16";
 *       the model's extra Claude headers (settings.claudeModelHeaders, e.g. anthropic-beta) are sent.
 *   - anything else → vertexGeminiAdapter, format 'gemini':
 *       POST …/publishers/google/models/{model}:generateContent (stream: :streamGenerateContent?alt=sse).
 * Both use the same credential exchange (credentials.ts) and send `Authorization: Bearer <token>`.
 * Answers and SSE streams are already in the declared format. The channel's base URL is not used:
 * the region (location.ts) decides the host.
 */
import type { AdapterRequest, ChannelTarget, ProviderAdapter, UpstreamCall } from '../../types';
import { upstreamErrorMessage } from '../util';
import { vertexCredentials } from './credentials';
import { vertexModelsUrl, vertexRegion } from './location';
import { isClaudeModel, vertexClaudeModelId } from './models';
import { parseServiceAccount } from './service-account';

export { vertexCredentials } from './credentials';
export { vertexRegion } from './location';
export { vertexClaudeModelId } from './models';
export { parseServiceAccount, serviceAccountJwt, type ServiceAccount } from './service-account';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

function bearer(req: AdapterRequest): string {
  if (!req.accessToken) throw new Error('Vertex AI needs an access token from the credential exchange');
  return `Bearer ${req.accessToken}`;
}

function modelsUrl(channel: ChannelTarget, model: string, publisher: 'anthropic' | 'google'): string {
  const { projectId } = parseServiceAccount(channel.key);
  return vertexModelsUrl(vertexRegion(channel.other, model), projectId, publisher, channel.baseUrl);
}

const credentials = (channel: ChannelTarget, nowSeconds: number) => vertexCredentials(channel, nowSeconds);

export const vertexClaudeAdapter: ProviderAdapter = {
  name: 'vertex-claude',
  format: 'anthropic',
  modes: ['chat'],
  credentials,

  buildRequest(req): UpstreamCall {
    const action = req.stream ? 'streamRawPredict' : 'rawPredict';
    const url = `${modelsUrl(req.channel, req.model, 'anthropic')}${vertexClaudeModelId(req.model)}:${action}`;
    const { model: _model, ...rest } = req.body;
    const body = { ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION, stream: req.stream };
    return {
      method: 'POST',
      url,
      headers: {
        ...req.settings.claudeModelHeaders[req.model],
        Authorization: bearer(req),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    };
  },

  errorMessage: upstreamErrorMessage,
};

export const vertexGeminiAdapter: ProviderAdapter = {
  name: 'vertex-gemini',
  format: 'gemini',
  modes: ['chat'],
  credentials,

  buildRequest(req): UpstreamCall {
    const action = req.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      method: 'POST',
      url: `${modelsUrl(req.channel, req.model, 'google')}${req.model}:${action}`,
      headers: { Authorization: bearer(req), 'Content-Type': 'application/json' },
      body: JSON.stringify(req.body),
    };
  },

  errorMessage: upstreamErrorMessage,
};

/** The Vertex adapter serving `model` (the upstream model name, after model mapping). */
export function vertexAdapterFor(model: string): ProviderAdapter {
  return isClaudeModel(model) ? vertexClaudeAdapter : vertexGeminiAdapter;
}
