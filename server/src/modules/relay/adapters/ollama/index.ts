/**
 * Ollama (type 4). Chat and embeddings use the native API, other modes the OpenAI-compatible `/v1`
 * endpoints (URLs as for OpenAI). Streams are cut as NDJSON (`framing: 'ndjson'`):
 *  - chat → POST `{base}/api/chat` (chat.ts); answers → chat.completion with usage from
 *    prompt_eval_count / eval_count; stream lines → OpenAI chunks + a final usage chunk (stream.ts);
 *  - embeddings → POST `{base}/api/embed` {model, input, dimensions?} → an OpenAI embeddings list;
 *  - completions, responses → `/v1/...`, forwarded as is; their SSE is re-assembled from the lines.
 * A channel key, when set, is sent as a Bearer token (for Ollama behind an authenticating proxy).
 */
import type { AdapterRequest, ProviderAdapter, UpstreamCall } from '../../types';
import { bearerAuth, openAiStyleCall, openAiUrl } from '../openai';
import {
  arr,
  asObj,
  compact,
  embeddingList,
  isObj,
  joinUrl,
  jsonHeaders,
  jsonObject,
  num,
  unsupportedMode,
  upstreamErrorMessage,
} from '../util';
import { ollamaChatBody, ollamaChatToOpenAi } from './chat';
import { ollamaChatStreamConverter, sseLineConverter } from './stream';

function auth(key: string): Record<string, string> {
  return key !== '' ? bearerAuth(key) : {};
}

function nativeCall(req: AdapterRequest, path: string, body: object): UpstreamCall {
  return {
    method: 'POST',
    url: joinUrl(req.channel.baseUrl, path),
    headers: jsonHeaders(auth(req.channel.key)),
    body: JSON.stringify(body),
  };
}

export const ollamaAdapter: ProviderAdapter = {
  name: 'ollama',
  format: 'openai',
  modes: ['chat', 'completions', 'embeddings', 'responses'],
  framing: 'ndjson',

  buildRequest(req) {
    switch (req.mode) {
      case 'chat':
        return nativeCall(req, '/api/chat', ollamaChatBody(req.body, req.model, req.stream));
      case 'embeddings': {
        const body = compact({
          model: req.model,
          input: req.body.input,
          dimensions: num(req.body.dimensions),
        });
        return nativeCall(req, '/api/embed', body);
      }
      case 'completions':
      case 'responses':
        return openAiStyleCall(req, openAiUrl(req.channel, req.mode), auth(req.channel.key));
      default:
        throw unsupportedMode('ollama', req.mode);
    }
  },

  convertResponse(body, req) {
    if (req.mode === 'chat') return ollamaChatToOpenAi(body, req.model);
    if (req.mode === 'embeddings') {
      const answer = asObj(body);
      return embeddingList(req.model, arr(answer.embeddings), num(answer.prompt_eval_count) ?? 0);
    }
    return isObj(body) ? jsonObject(body) : {};
  },

  createStreamConverter(req) {
    return req.mode === 'chat' ? ollamaChatStreamConverter(req.model) : sseLineConverter();
  },

  errorMessage: upstreamErrorMessage,
};
