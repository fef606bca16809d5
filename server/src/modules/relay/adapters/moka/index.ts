/**
 * MokaAI (type 44): OpenAI-compatible embeddings (m3e models) at `{base}/v1/embeddings`, Bearer auth.
 */
import type { ProviderAdapter } from '../../types';
import { bearerAuth, openAiStyleCall, openAiUrl } from '../openai';
import { unsupportedMode, upstreamErrorMessage } from '../util';

export const mokaAdapter: ProviderAdapter = {
  name: 'moka',
  format: 'openai',
  modes: ['embeddings'],

  buildRequest(req) {
    if (req.mode !== 'embeddings') throw unsupportedMode('moka', req.mode);
    return openAiStyleCall(req, openAiUrl(req.channel, 'embeddings'), bearerAuth(req.channel.key));
  },

  errorMessage: upstreamErrorMessage,
};
