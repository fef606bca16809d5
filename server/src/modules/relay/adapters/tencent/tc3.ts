/**
 * Tencent Cloud API signature v3 (TC3-HMAC-SHA256), synchronous, with node:crypto, following Tencent's
 * "Signature v3" document: canonical request (method, "/", empty query for POST, the content-type and
 * host headers lower-cased, signed header list, hex SHA-256 of the payload) → string to sign
 * (algorithm, timestamp, "<UTC date>/<service>/tc3_request", hex SHA-256 of the canonical request) →
 * key derived as HMAC("TC3" + SecretKey, date) → service → "tc3_request" → hex HMAC signature.
 */
import { createHash, createHmac } from 'node:crypto';

export interface Tc3Input {
  secretId: string;
  secretKey: string;
  /** Product name, the first label of the API host ("hunyuan", "cvm"...). */
  service: string;
  host: string;
  contentType: string;
  payload: string;
  /** Unix time in seconds (sent as X-TC-Timestamp). */
  timestamp: number;
}

export interface Tc3Signature {
  authorization: string;
  signature: string;
  canonicalRequest: string;
  stringToSign: string;
}

const ALGORITHM = 'TC3-HMAC-SHA256';
const SIGNED_HEADERS = 'content-type;host';

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** The UTC calendar date of a Unix timestamp, YYYY-MM-DD. */
export function utcDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

export function tc3Sign(input: Tc3Input): Tc3Signature {
  const canonicalHeaders = `content-type:${input.contentType.toLowerCase()}\nhost:${input.host.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, SIGNED_HEADERS, sha256Hex(input.payload)].join(
    '\n',
  );

  const date = utcDate(input.timestamp);
  const credentialScope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [
    ALGORITHM,
    String(input.timestamp),
    credentialScope,
    sha256Hex(canonicalRequest),
  ].join('\n');

  const secretSigning = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign, 'utf8').digest('hex');
  const authorization =
    `${ALGORITHM} Credential=${input.secretId}/${credentialScope}, ` +
    `SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
  return { authorization, signature, canonicalRequest, stringToSign };
}
