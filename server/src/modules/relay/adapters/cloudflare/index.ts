/**
 * Cloudflare Workers AI (type 39) through its OpenAI-compatible endpoints:
 * `{base}/client/v4/accounts/{account id}/ai/v1/{chat/completions|completions|embeddings|responses}`.
 * The account id is the channel's `other` field; auth is a Bearer API token. Cloudflare error bodies
 * ({"errors":[{"message"}]}) are understood by the shared error helper.
 */
import type { ProviderAdapter, RelayMode } from '../../types';
import { bearerAuth, OPENAI_PATHS, openAiStyleCall } from '../openai';
import { joinUrl, unsupportedMode, upstreamErrorMessage } from '../util';

const MODES: readonly RelayMode[] = ['chat', 'completions', 'embeddings', 'responses'];

export function cloudflareUrl(baseUrl: string, accountId: string, mode: RelayMode): string {
  if (!MODES.includes(mode)) throw unsupportedMode('cloudflare', mode);
  const account = accountId.trim();
  if (account === '') throw new Error('The Cloudflare channel needs its account id in the "other" field');
  return joinUrl(baseUrl, `/client/v4/accounts/${encodeURIComponent(account)}/ai/v1${OPENAI_PATHS[mode]}`);
}

export const cloudflareAdapter: ProviderAdapter = {
  name: 'cloudflare',
  format: 'openai',
  modes: MODES,

  buildRequest(req) {
    const url = cloudflareUrl(req.channel.baseUrl, req.channel.other, req.mode);
    return openAiStyleCall(req, url, bearerAuth(req.channel.key));
  },

  errorMessage: upstreamErrorMessage,
};
