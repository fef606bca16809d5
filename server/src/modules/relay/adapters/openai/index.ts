/**
 * OpenAI and every OpenAI-compatible channel type (1, 6–10, 12, 13, 17, 19–22, 25–27, 31, 35, 40,
 * 42, 43, 45–48). The client's body is forwarded with `model` set to the upstream model; multipart
 * modes only get the URL and auth (relay.service forwards the form and its content type). Bearer
 * auth, plus `OpenAI-Organization` on OpenAI itself when the channel names an organization. Rerank
 * answers get an OpenAI-style `usage` when the provider reports tokens elsewhere.
 */
import type { AdapterRequest, ProviderAdapter, RelayMode, UpstreamCall } from '../../types';
import {
  isObj,
  jsonHeaders,
  jsonObject,
  MULTIPART_MODES,
  normalizeRerank,
  upstreamErrorMessage,
} from '../util';
import { OPENAI_PATHS, openAiUrl } from './paths';

export { apiRoot, openAiUrl, OPENAI_PATHS, versionPrefix } from './paths';

const OPENAI = 1;

export function bearerAuth(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** A POST of the client's body (model replaced) or, for multipart modes, of nothing but the auth headers. */
export function openAiStyleCall(
  req: AdapterRequest,
  url: string,
  auth: Record<string, string>,
): UpstreamCall {
  if (MULTIPART_MODES.has(req.mode)) return { method: 'POST', url, headers: { ...auth } };
  return {
    method: 'POST',
    url,
    headers: jsonHeaders(auth),
    body: req.rawBody ?? JSON.stringify({ ...req.body, model: req.model }),
  };
}

export const openaiAdapter: ProviderAdapter = {
  name: 'openai',
  format: 'openai',
  modes: Object.keys(OPENAI_PATHS) as RelayMode[],

  buildRequest(req) {
    const auth = bearerAuth(req.channel.key);
    if (req.channel.type === OPENAI && req.channel.organization !== '') {
      auth['OpenAI-Organization'] = req.channel.organization;
    }
    return openAiStyleCall(req, openAiUrl(req.channel, req.mode), auth);
  },

  convertResponse(body, req) {
    if (req.mode === 'rerank') return normalizeRerank(body);
    return isObj(body) ? jsonObject(body) : {};
  },

  errorMessage: upstreamErrorMessage,
};
