/**
 * Dify (type 37), chat apps through the chat-messages API, converting from and to the hub itself:
 * POST `{base}/v1/chat-messages` {inputs: {}, query, response_mode: streaming|blocking, user}
 * (query.ts) with Bearer auth (the app's API key); answers and stream events → OpenAI (response.ts).
 */
import type { ProviderAdapter } from '../../types';
import { apiRoot, bearerAuth } from '../openai';
import { unsupportedMode, upstreamErrorMessage } from '../util';
import { difyBody } from './query';
import { difyAnswerToOpenAi, difyStreamConverter } from './response';

export const difyAdapter: ProviderAdapter = {
  name: 'dify',
  format: 'openai',
  modes: ['chat'],

  buildRequest(req) {
    if (req.mode !== 'chat') throw unsupportedMode('dify', req.mode);
    return {
      method: 'POST',
      url: `${apiRoot(req.channel.baseUrl, '/v1')}/chat-messages`,
      headers: { ...bearerAuth(req.channel.key), 'Content-Type': 'application/json' },
      body: JSON.stringify(difyBody(req.body, req.stream)),
    };
  },

  convertResponse(body, req) {
    return difyAnswerToOpenAi(body, req.model);
  },

  createStreamConverter(req) {
    return difyStreamConverter(req.model);
  },

  errorMessage: upstreamErrorMessage,
};
