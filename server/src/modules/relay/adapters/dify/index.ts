/**
 * Dify (type 37), chat apps through the chat-messages API, converting from and to the hub itself:
 * POST `{base}/v1/chat-messages` {inputs: {}, query, response_mode: "streaming", user} (query.ts)
 * with Bearer auth (the app's API key); stream events → OpenAI chunks (response.ts). Agent apps only
 * stream, so a non-stream client request is sent with response_mode "streaming" too and its events
 * are aggregated into one chat.completion (createStreamAggregator); a blocking JSON answer (from a
 * Dify-compatible server that ignores the mode) is still converted.
 */
import type { ProviderAdapter } from '../../types';
import { apiRoot, bearerAuth } from '../openai';
import { jsonHeaders, unsupportedMode, upstreamErrorMessage } from '../util';
import { difyBody } from './query';
import { difyAnswerToOpenAi, difyStreamAggregator, difyStreamConverter } from './response';

export const difyAdapter: ProviderAdapter = {
  name: 'dify',
  format: 'openai',
  modes: ['chat'],

  buildRequest(req) {
    if (req.mode !== 'chat') throw unsupportedMode('dify', req.mode);
    return {
      method: 'POST',
      url: `${apiRoot(req.channel.baseUrl, '/v1')}/chat-messages`,
      headers: jsonHeaders(bearerAuth(req.channel.key)),
      body: JSON.stringify(difyBody(req.body, true)),
    };
  },

  convertResponse(body, req) {
    return difyAnswerToOpenAi(body, req.model);
  },

  createStreamConverter(req) {
    return difyStreamConverter(req.model);
  },

  createStreamAggregator(req) {
    return difyStreamAggregator(req.model);
  },

  errorMessage: upstreamErrorMessage,
};
