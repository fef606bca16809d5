/**
 * The AWS credentials and region of a Bedrock channel key. Accepted forms:
 *   "AK|SK|REGION" (or "AK|SK|REGION|SESSION_TOKEN", or "AK|SK" with the region in `other`)
 *   {"accessKeyId": "...", "secretAccessKey": "...", "region": "...", "sessionToken": "..."}
 * The key's region wins over the channel's `other`; us-east-1 is the last resort.
 */
import { isObj, parseJson, str } from '../util';
import type { AwsCredentials } from './sigv4';

export interface BedrockCredentials extends AwsCredentials {
  region: string;
}

export const DEFAULT_BEDROCK_REGION = 'us-east-1';

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function fromJson(key: string): Partial<BedrockCredentials> | undefined {
  const parsed = parseJson(key);
  if (!isObj(parsed)) return undefined;
  return {
    accessKeyId: nonEmpty(str(parsed.accessKeyId)),
    secretAccessKey: nonEmpty(str(parsed.secretAccessKey)),
    sessionToken: nonEmpty(str(parsed.sessionToken)),
    region: nonEmpty(str(parsed.region)),
  };
}

function fromPipes(key: string): Partial<BedrockCredentials> {
  const [accessKeyId, secretAccessKey, region, sessionToken] = key.split('|').map((part) => nonEmpty(part));
  return { accessKeyId, secretAccessKey, region, sessionToken };
}

/** Throws when the key has no access key id or secret (the message never repeats the key). */
export function parseBedrockKey(key: string, other: string): BedrockCredentials {
  const trimmed = key.trim();
  const parts = (trimmed.startsWith('{') ? fromJson(trimmed) : undefined) ?? fromPipes(trimmed);
  if (!parts.accessKeyId || !parts.secretAccessKey) {
    throw new Error(
      'The Bedrock key must be "AK|SK|REGION" or a JSON object with accessKeyId and secretAccessKey',
    );
  }
  const credentials: BedrockCredentials = {
    accessKeyId: parts.accessKeyId,
    secretAccessKey: parts.secretAccessKey,
    region: parts.region ?? nonEmpty(other) ?? DEFAULT_BEDROCK_REGION,
  };
  if (parts.sessionToken) credentials.sessionToken = parts.sessionToken;
  return credentials;
}
