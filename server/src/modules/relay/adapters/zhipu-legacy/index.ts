/**
 * Zhipu legacy v3 API (channel type 16), ChatGLM models. Declares the OpenAI format and converts
 * itself: request.ts (body), response.ts (answer), stream.ts (sse-invoke stream, line-framed).
 *
 * POST {baseUrl}/api/paas/v3/model-api/{model}/invoke (stream: /sse-invoke), with
 * `Authorization: <JWT>` signed from the "id.secret" key at the injected clock (jwt.ts).
 */
import type { ProviderAdapter, UpstreamCall } from '../../types';
import { joinUrl, upstreamErrorMessage } from '../util';
import { zhipuToken } from './jwt';
import { zhipuBody } from './request';
import { zhipuResponseToOpenAI } from './response';
import { createZhipuStreamConverter } from './stream';

export { parseZhipuKey, zhipuToken, ZHIPU_TOKEN_TTL_MS } from './jwt';
export { zhipuBody } from './request';
export { zhipuResponseToOpenAI } from './response';

/** The Zhipu v3 adapter; `clock` (ms since the epoch) dates the JWTs and the answers' `created`. */
export function createZhipuLegacyAdapter(clock: () => number = Date.now): ProviderAdapter {
  const createdNow = () => Math.floor(clock() / 1000);
  return {
    name: 'zhipu-legacy',
    format: 'openai',
    modes: ['chat'],
    framing: 'ndjson',

    buildRequest(req): UpstreamCall {
      const action = req.stream ? 'sse-invoke' : 'invoke';
      return {
        method: 'POST',
        url: joinUrl(
          req.channel.baseUrl,
          `/api/paas/v3/model-api/${encodeURIComponent(req.model)}/${action}`,
        ),
        headers: {
          Authorization: zhipuToken(req.channel.key, clock()),
          'Content-Type': 'application/json',
          Accept: req.stream ? 'text/event-stream' : 'application/json',
        },
        body: JSON.stringify(zhipuBody(req.body)),
      };
    },

    convertResponse: (body, req) => zhipuResponseToOpenAI(body, req.model, createdNow()),

    createStreamConverter: (req) =>
      createZhipuStreamConverter({ id: 'chatcmpl-zhipu', created: createdNow(), model: req.model }),

    errorMessage: upstreamErrorMessage,
  };
}
