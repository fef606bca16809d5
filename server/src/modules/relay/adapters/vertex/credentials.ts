/**
 * Vertex AI credential exchange: the service account's JWT is POSTed form-encoded to its token_uri;
 * the answer {access_token, expires_in} is cached by relay.service under "vertex:<client_email>".
 */
import type { ChannelTarget, CredentialExchange } from '../../types';
import { isObj, num, str } from '../util';
import { sanitizeUpstreamText } from '../../errors';
import { parseServiceAccount, serviceAccountJwt } from './service-account';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function parseToken(body: unknown): { token: string; expiresInSeconds: number } {
  const answer = isObj(body) ? body : {};
  const token = str(answer.access_token);
  if (!token) {
    const reason = str(answer.error_description) ?? str(answer.error) ?? 'no access_token in the answer';
    throw new Error(`Google token exchange failed: ${sanitizeUpstreamText(reason)}`);
  }
  return { token, expiresInSeconds: num(answer.expires_in) ?? 3600 };
}

export function vertexCredentials(channel: ChannelTarget, nowSeconds: number): CredentialExchange {
  const account = parseServiceAccount(channel.key);
  const form = new URLSearchParams({
    grant_type: JWT_BEARER_GRANT,
    assertion: serviceAccountJwt(account, nowSeconds),
  });
  return {
    cacheKey: `vertex:${account.clientEmail}`,
    request: {
      method: 'POST',
      url: account.tokenUri,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    parse: parseToken,
  };
}
