/**
 * Azure OpenAI (type 3). The upstream model name is the deployment name:
 * `{base}/openai/deployments/{model}/{task}?api-version={version}`; the Responses API is not
 * deployment-scoped: `{base}/openai/responses?api-version={version}`. The version is the channel's
 * `other` field (default 2025-04-01-preview). Auth is the `api-key` header; bodies as for OpenAI.
 */
import type { ProviderAdapter, RelayMode } from '../../types';
import { openAiStyleCall } from '../openai';
import { joinUrl, unsupportedMode, upstreamErrorMessage } from '../util';

export const AZURE_DEFAULT_API_VERSION = '2025-04-01-preview';

/** Deployment-scoped task path of each supported mode (responses is handled apart). */
const TASKS: Readonly<Partial<Record<RelayMode, string>>> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  images: 'images/generations',
  'image-edits': 'images/edits',
  speech: 'audio/speech',
  transcriptions: 'audio/transcriptions',
  translations: 'audio/translations',
};

export function azureUrl(baseUrl: string, model: string, mode: RelayMode, apiVersion: string): string {
  const query = `?api-version=${encodeURIComponent(apiVersion.trim() || AZURE_DEFAULT_API_VERSION)}`;
  if (mode === 'responses') return joinUrl(baseUrl, `/openai/responses${query}`);
  const task = TASKS[mode];
  if (!task) throw unsupportedMode('azure', mode);
  return joinUrl(baseUrl, `/openai/deployments/${encodeURIComponent(model)}/${task}${query}`);
}

export const azureAdapter: ProviderAdapter = {
  name: 'azure',
  format: 'openai',
  modes: [...(Object.keys(TASKS) as RelayMode[]), 'responses'],

  buildRequest(req) {
    const url = azureUrl(req.channel.baseUrl, req.model, req.mode, req.channel.other);
    return openAiStyleCall(req, url, { 'api-key': req.channel.key });
  },

  errorMessage: upstreamErrorMessage,
};
