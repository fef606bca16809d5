/**
 * A Google service-account JSON key (the channel key of type 41) and the RS256-signed JWT that is
 * traded for an OAuth access token (RFC 7523 JWT bearer grant, as Google's auth libraries do).
 */
import { createSign } from 'node:crypto';
import { isObj, parseJson, str } from '../util';

export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  projectId: string;
  tokenUri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const JWT_LIFETIME_SECONDS = 3600;

/** Throws when a required field is missing (the message never repeats the key). */
export function parseServiceAccount(key: string): ServiceAccount {
  const parsed = parseJson(key.trim());
  if (!isObj(parsed)) throw new Error('The Vertex AI key must be a service-account JSON key');
  const clientEmail = str(parsed.client_email);
  const privateKey = str(parsed.private_key);
  const projectId = str(parsed.project_id);
  if (!clientEmail || !privateKey || !projectId) {
    throw new Error('The Vertex AI service-account key needs client_email, private_key and project_id');
  }
  const account: ServiceAccount = {
    clientEmail,
    privateKey,
    projectId,
    tokenUri: str(parsed.token_uri) || GOOGLE_TOKEN_URI,
  };
  const privateKeyId = str(parsed.private_key_id);
  if (privateKeyId) account.privateKeyId = privateKeyId;
  return account;
}

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** The signed assertion: header {alg RS256, typ JWT, kid}, claims iss/scope/aud/iat/exp. */
export function serviceAccountJwt(account: ServiceAccount, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = {
    iss: account.clientEmail,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: account.tokenUri,
    iat: nowSeconds,
    exp: nowSeconds + JWT_LIFETIME_SECONDS,
  };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(account.privateKey);
  return `${signingInput}.${base64url(signature)}`;
}
