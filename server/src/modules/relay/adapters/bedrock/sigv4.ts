/**
 * AWS Signature Version 4 (header form), synchronous, with node:crypto. Follows the AWS spec step by
 * step: canonical request → string to sign → derived signing key → signature. The canonical URI is
 * the request path URI-encoded once more (every AWS service but S3 double-encodes); the payload hash
 * is also sent as `x-amz-content-sha256`, as the AWS SDKs do. Cross-checked against
 * @smithy/signature-v4 in sigv4.spec.ts.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigV4Request {
  method: string;
  /** Absolute URL; its path must already be URI-encoded as it will be sent. */
  url: string;
  /** Headers to send and sign (host is added from the URL). */
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export interface SigV4Scope {
  region: string;
  service: string;
  /** Signing time in milliseconds since the epoch. */
  nowMs: number;
}

export interface SigV4Result {
  /** The headers to send: the input headers plus x-amz-date, x-amz-content-sha256, the token and Authorization. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding: everything but unreserved characters (A-Z a-z 0-9 - _ . ~) is percent-encoded. */
export function awsUriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The path with `.`/`..`/empty segments resolved, then URI-encoded again, slashes kept. */
export function canonicalUri(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  const normalized = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${trailing}`;
  return awsUriEncode(normalized).replace(/%2F/g, '/');
}

/** Query parameters encoded and sorted by name, then value. */
export function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([name, value]) => [awsUriEncode(name), awsUriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? compare(x, y) : compare(a, b)))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `YYYYMMDD'T'HHMMSS'Z'` in UTC. */
export function amzDate(nowMs: number): string {
  return new Date(nowMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

export function signingKey(
  secretAccessKey: string,
  shortDate: string,
  region: string,
  service: string,
): Buffer {
  const dateKey = hmac(`AWS4${secretAccessKey}`, shortDate);
  return hmac(hmac(hmac(dateKey, region), service), 'aws4_request');
}

/** Signs `request` and returns the headers to send with it. */
export function signSigV4(
  request: SigV4Request,
  credentials: AwsCredentials,
  scope: SigV4Scope,
): SigV4Result {
  const url = new URL(request.url);
  const longDate = amzDate(scope.nowMs);
  const shortDate = longDate.slice(0, 8);
  const payloadHash = sha256Hex(request.body);

  const headers: Record<string, string> = { ...request.headers, 'x-amz-date': longDate };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  headers['x-amz-content-sha256'] = payloadHash;

  const canonical = new Map<string, string>([['host', url.host]]);
  for (const [name, value] of Object.entries(headers)) {
    canonical.set(
      name.toLowerCase(),
      value
        .replace(/[\r\n]/g, ' ')
        .replace(/[ \t]+/g, ' ')
        .trim(),
    );
  }
  const names = [...canonical.keys()].sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(url.pathname),
    canonicalQuery(url.searchParams),
    names.map((name) => `${name}:${canonical.get(name)}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');

  const credentialScope = `${shortDate}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = [ALGORITHM, longDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  const key = signingKey(credentials.secretAccessKey, shortDate, scope.region, scope.service);
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');

  headers.authorization =
    `${ALGORITHM} Credential=${credentials.accessKeyId}/${credentialScope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers, canonicalRequest, stringToSign, signature };
}
