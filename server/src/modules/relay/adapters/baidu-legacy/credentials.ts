/**
 * Baidu legacy access-token exchange: the "API_KEY|SECRET_KEY" channel key is traded at
 * {baseUrl}/oauth/2.0/token (client-credentials grant, parameters in the query) for an access token
 * valid about 30 days; relay.service caches it under a hash of the key.
 */
import { createHash } from 'node:crypto';
import type { ChannelTarget, CredentialExchange } from '../../types';
import { asObj, joinUrl, num, str } from '../util';
import { sanitizeUpstreamText } from '../../errors';

export function parseBaiduKey(key: string): { apiKey: string; secretKey: string } {
  const [apiKey = '', secretKey = '', ...rest] = key.trim().split('|');
  if (apiKey === '' || secretKey === '' || rest.length > 0) {
    throw new Error('The Baidu key must be "API_KEY|SECRET_KEY"');
  }
  return { apiKey, secretKey };
}

function parseToken(body: unknown): { token: string; expiresInSeconds: number } {
  const answer = asObj(body);
  const token = str(answer.access_token);
  if (!token) {
    const reason = str(answer.error_description) ?? str(answer.error) ?? 'no access_token in the answer';
    throw new Error(`Baidu token exchange failed: ${sanitizeUpstreamText(reason)}`);
  }
  return { token, expiresInSeconds: num(answer.expires_in) ?? 2_592_000 };
}

export function baiduCredentials(channel: ChannelTarget): CredentialExchange {
  const { apiKey, secretKey } = parseBaiduKey(channel.key);
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: apiKey,
    client_secret: secretKey,
  });
  const keyHash = createHash('sha256').update(`${apiKey}|${secretKey}`).digest('hex').slice(0, 32);
  return {
    cacheKey: `baidu:${keyHash}`,
    request: {
      method: 'POST',
      url: `${joinUrl(channel.baseUrl, '/oauth/2.0/token')}?${query.toString()}`,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '',
    },
    parse: parseToken,
  };
}
