/**
 * iFlytek websocket authentication: the URL carries host, date (RFC 1123, GMT) and authorization
 * query parameters. signature = base64(HMAC-SHA256(APISecret, "host: …\ndate: …\nGET <path> HTTP/1.1"));
 * authorization = base64('api_key="…", algorithm="hmac-sha256", headers="host date request-line",
 * signature="…"'). Also the channel key: "APPID|APISecret|APIKey".
 */
import { createHmac } from 'node:crypto';
import { sparkPath } from './versions';

export const DEFAULT_SPARK_URL = 'wss://spark-api.xf-yun.com';

export interface SparkKey {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export function parseSparkKey(key: string): SparkKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length !== 3 || parts.some((part) => part === '')) {
    throw new Error('The Spark key must be "APPID|APISecret|APIKey"');
  }
  return { appId: parts[0], apiSecret: parts[1], apiKey: parts[2] };
}

/** The websocket origin: the channel's base URL when it is one (http(s) becomes ws(s)), else Spark's. */
function origin(baseUrl: string): URL {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  if (!/^(wss?|https?):\/\//.test(trimmed)) return new URL(DEFAULT_SPARK_URL);
  return new URL(trimmed.replace(/^http/, 'ws'));
}

/** The signed websocket URL of `version` at `nowMs`. */
export function sparkAuthUrl(
  baseUrl: string,
  apiKey: string,
  apiSecret: string,
  version: string,
  nowMs: number,
): string {
  const base = origin(baseUrl);
  const path = sparkPath(version);
  const date = new Date(nowMs).toUTCString();
  const signatureOrigin = `host: ${base.host}\ndate: ${date}\nGET ${path} HTTP/1.1`;
  const signature = createHmac('sha256', apiSecret).update(signatureOrigin, 'utf8').digest('base64');
  const authorizationOrigin = `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  const query = new URLSearchParams({
    authorization: Buffer.from(authorizationOrigin, 'utf8').toString('base64'),
    date,
    host: base.host,
  });
  return `${base.protocol}//${base.host}${path}?${query.toString()}`;
}
