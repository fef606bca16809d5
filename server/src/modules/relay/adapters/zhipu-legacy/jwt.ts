/**
 * Zhipu's v3 API token: a JWT signed HS256 with the secret half of the "id.secret" key. Header
 * {alg: "HS256", sign_type: "SIGN"}, payload {api_key: id, exp, timestamp}, both times in
 * milliseconds (Zhipu's convention, unlike the JWT standard's seconds).
 */
import { createHmac } from 'node:crypto';

export const ZHIPU_TOKEN_TTL_MS = 3600 * 1000;

export function parseZhipuKey(key: string): { id: string; secret: string } {
  const trimmed = key.trim();
  const dot = trimmed.indexOf('.');
  const id = trimmed.slice(0, dot);
  const secret = trimmed.slice(dot + 1);
  if (dot < 0 || id === '' || secret === '') throw new Error('The Zhipu key must be "id.secret"');
  return { id, secret };
}

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

export function zhipuToken(key: string, nowMs: number, ttlMs = ZHIPU_TOKEN_TTL_MS): string {
  const { id, secret } = parseZhipuKey(key);
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64url(JSON.stringify({ api_key: id, exp: nowMs + ttlMs, timestamp: nowMs }));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64url(signature)}`;
}
