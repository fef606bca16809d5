/**
 * Tencent Hunyuan (channel type 23), API 3.0 action ChatCompletions, version 2023-09-01. Declares the
 * OpenAI format and converts itself (request.ts, response.ts, stream.ts).
 *
 * POST {baseUrl}/ with the JSON body, signed TC3-HMAC-SHA256 (tc3.ts, service "hunyuan", host from the
 * base URL) at the injected clock; headers X-TC-Action, X-TC-Version, X-TC-Timestamp, Authorization,
 * and X-TC-Region when the channel's `other` names one. The Host header is the base URL's host, which
 * is the host that is signed.
 */
import type { ProviderAdapter, UpstreamCall } from '../../types';
import { joinUrl } from '../util';
import { parseTencentKey } from './credentials';
import { tencentErrorMessage } from './errors';
import { hunyuanBody } from './request';
import { hunyuanToOpenAI } from './response';
import { createHunyuanStreamConverter } from './stream';
import { tc3Sign } from './tc3';

export { parseTencentKey, type TencentKey } from './credentials';
export { tencentErrorMessage } from './errors';
export { hunyuanBody } from './request';
export { hunyuanToOpenAI } from './response';
export { tc3Sign, utcDate, type Tc3Input, type Tc3Signature } from './tc3';

export const HUNYUAN_SERVICE = 'hunyuan';
export const HUNYUAN_ACTION = 'ChatCompletions';
export const HUNYUAN_VERSION = '2023-09-01';
const CONTENT_TYPE = 'application/json';

/** The Hunyuan adapter; `clock` (ms since the epoch) dates the signatures. */
export function createTencentAdapter(clock: () => number = Date.now): ProviderAdapter {
  const nowSeconds = () => Math.floor(clock() / 1000);
  return {
    name: 'tencent',
    format: 'openai',
    modes: ['chat'],

    buildRequest(req): UpstreamCall {
      const { secretId, secretKey } = parseTencentKey(req.channel.key);
      const url = joinUrl(req.channel.baseUrl, '/');
      const payload = JSON.stringify(hunyuanBody(req.body, req.model, req.stream));
      const timestamp = nowSeconds();
      const { authorization } = tc3Sign({
        secretId,
        secretKey,
        service: HUNYUAN_SERVICE,
        host: new URL(url).host,
        contentType: CONTENT_TYPE,
        payload,
        timestamp,
      });
      const headers: Record<string, string> = {
        Authorization: authorization,
        'Content-Type': CONTENT_TYPE,
        'X-TC-Action': HUNYUAN_ACTION,
        'X-TC-Version': HUNYUAN_VERSION,
        'X-TC-Timestamp': String(timestamp),
      };
      const region = req.channel.other.trim();
      if (region !== '') headers['X-TC-Region'] = region;
      return { method: 'POST', url, headers, body: payload };
    },

    convertResponse: (body, req) => hunyuanToOpenAI(body, req.model, nowSeconds()),

    createStreamConverter: (req) => createHunyuanStreamConverter(req.model, nowSeconds()),

    errorMessage: tencentErrorMessage,
  };
}
