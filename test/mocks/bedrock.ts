/**
 * AWS Bedrock runtime, Anthropic models: POST /model/{modelId}/invoke (an Anthropic message as JSON)
 * and /model/{modelId}/invoke-with-response-stream (AWS event-stream frames, each a `chunk` event
 * whose payload is {"bytes": base64(one Anthropic stream event)}; the message_stop event carries
 * amazon-bedrock-invocationMetrics). The body is an Anthropic body with anthropic_version
 * "bedrock-2023-05-31" and neither `model` nor `stream`.
 *
 * Every request must carry a well-formed SigV4 Authorization (service "bedrock"); when the access key
 * id is in `auth.signingKeys`, the signature is checked by re-signing the received request with
 * @smithy/signature-v4. Errors are {"message"} with an x-amzn-errortype header, auth failures 403.
 */
import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { answerMessage } from './anthropic';
import type { MockUsage } from './directives';
import { Ctx, defaultErrorMessage, ErrorWriter, Exchange, RecordedRequest } from './exchange';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

const EXCEPTIONS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

function writeException(ex: Exchange, status: number, type: string, message: string): void {
  ex.json(
    status,
    { message },
    { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
  );
}

/** Bedrock's error format; the mock's generic 401 (unknown key) becomes AWS's 403. */
export const bedrockError: ErrorWriter = (ex, status, message) => {
  if (status === 401) {
    return writeException(
      ex,
      403,
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    );
  }
  const type = EXCEPTIONS[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
  writeException(ex, status, type, message ?? defaultErrorMessage(status));
};

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

export interface SigV4Parts {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

export function parseSigV4(authorization: string | undefined): SigV4Parts | null {
  const m = AUTHORIZATION.exec(authorization ?? '');
  if (!m) return null;
  return {
    accessKeyId: m[1],
    date: m[2],
    region: m[3],
    service: m[4],
    signedHeaders: m[5].split(';'),
    signature: m[6],
  };
}

/** The access key id of a SigV4-signed request (the credential `requireKey` is matched against). */
export function sigV4Credential(record: RecordedRequest): string | null {
  return parseSigV4(headerValue(record, 'authorization'))?.accessKeyId ?? null;
}

function headerValue(record: RecordedRequest, name: string): string | undefined {
  const value = record.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `YYYYMMDD'T'HHMMSS'Z'` → Date. */
function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : null;
}

/** Checks the SigV4 signature of a request; returns the error to answer with, or null when it holds. */
export async function checkSigV4(
  ctx: Ctx,
  service: string,
): Promise<{ status: number; type: string; message: string } | null> {
  const { record } = ctx;
  const authorization = headerValue(record, 'authorization');
  if (!authorization)
    return {
      status: 403,
      type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    };
  const parts = parseSigV4(authorization);
  const incomplete = (message: string) => ({ status: 403, type: 'IncompleteSignatureException', message });
  if (!parts)
    return incomplete(
      `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.`,
    );
  if (parts.service !== service) {
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to correct service: '${service}'.`,
    };
  }
  const amzDate = headerValue(record, 'x-amz-date') ?? '';
  const signingDate = parseAmzDate(amzDate);
  if (!signingDate || amzDate.slice(0, 8) !== parts.date) {
    return incomplete(
      'Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.',
    );
  }
  for (const required of ['host', 'x-amz-date']) {
    if (!parts.signedHeaders.includes(required))
      return incomplete(`'${required}' must be a 'SignedHeader' in the AWS Authorization.`);
  }
  const payloadHash = headerValue(record, 'x-amz-content-sha256');
  if (
    payloadHash !== undefined &&
    payloadHash !== createHash('sha256').update(record.rawBody).digest('hex')
  ) {
    return {
      status: 400,
      type: 'ValidationException',
      message: 'The provided x-amz-content-sha256 header does not match what was computed.',
    };
  }
  const secretAccessKey = ctx.auth.signingKeys[parts.accessKeyId];
  if (secretAccessKey === undefined) return null;

  const headers: Record<string, string> = {};
  for (const name of parts.signedHeaders) headers[name] = headerValue(record, name) ?? '';
  const sessionToken = headerValue(record, 'x-amz-security-token');
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: parts.accessKeyId,
      secretAccessKey,
      ...(sessionToken ? { sessionToken } : {}),
    },
    region: parts.region,
    service,
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: record.method,
      protocol: 'http:',
      hostname: (headers.host ?? '').replace(/:\d+$/, ''),
      path: record.path,
      query: record.query,
      headers,
      body: new Uint8Array(record.rawBody),
    },
    { signingDate },
  );
  if (signed.headers.authorization === authorization) return null;
  return {
    status: 403,
    type: 'InvalidSignatureException',
    message:
      'The request signature we calculated does not match the signature you provided. ' +
      'Check your AWS Secret Access Key and signing method.',
  };
}

/** Base model ids served on demand only through a cross-region inference profile (Claude 3.7 and later). */
const PROFILE_ONLY = /^anthropic\.claude-(?:3-7-|(?:sonnet|opus|haiku)-4)/;

/** "us.anthropic.claude-3-5-haiku-20241022-v1:0" → "claude-3-5-haiku-20241022", the name in answers. */
function anthropicName(modelId: string): string {
  return modelId.replace(/^(?:[a-z-]+\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One `chunk` event of InvokeModelWithResponseStream. */
export function bedrockChunk(event: object): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify({ bytes })),
  });
}

function metrics(usage: MockUsage | null): Record<string, unknown> {
  return {
    'amazon-bedrock-invocationMetrics': {
      inputTokenCount: usage ? usage.prompt + usage.cacheRead + usage.cacheWrite : 0,
      outputTokenCount: usage?.completion ?? 0,
      invocationLatency: 420,
      firstByteLatency: 120,
      ...(usage
        ? { cacheReadInputTokenCount: usage.cacheRead, cacheWriteInputTokenCount: usage.cacheWrite }
        : {}),
    },
  };
}

/** POST /model/{modelId}/invoke and /invoke-with-response-stream. */
export async function bedrockInvoke(ctx: Ctx, stream: boolean): Promise<void> {
  const { ex, body } = ctx;
  const denied = await checkSigV4(ctx, 'bedrock');
  if (denied) return writeException(ex, denied.status, denied.type, denied.message);
  const modelId = ctx.pathModel ?? '';
  if (!/(?:^|\.)anthropic\.claude/.test(modelId) && !modelId.startsWith('arn:')) {
    return bedrockError(ex, 400, 'The provided model identifier is invalid.');
  }
  if (PROFILE_ONLY.test(modelId)) {
    return bedrockError(
      ex,
      400,
      `Invocation of model ID ${modelId} with on-demand throughput isn’t supported. Retry your request with ` +
        'the ID or ARN of an inference profile that contains this model.',
    );
  }
  for (const key of ['model', 'stream']) {
    if (key in body)
      return bedrockError(
        ex,
        400,
        `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      );
  }
  for (const key of ['anthropic_version', 'max_tokens', 'messages']) {
    if (!(key in body))
      return bedrockError(
        ex,
        400,
        `Malformed input request: #: required key [${key}] not found, please reformat your input and try again.`,
      );
  }
  if (body.anthropic_version !== BEDROCK_ANTHROPIC_VERSION) {
    return bedrockError(ex, 400, `Invalid API version: ${String(body.anthropic_version)}`);
  }
  const requestId = `bedrock-mock-${ctx.n}`;
  await answerMessage(ctx, {
    model: anthropicName(modelId),
    stream,
    writeError: bedrockError,
    headers: (usage) => ({
      'x-amzn-requestid': requestId,
      'x-amzn-bedrock-invocation-latency': '420',
      'x-amzn-bedrock-input-token-count': String(
        usage ? usage.prompt + usage.cacheRead + usage.cacheWrite : 0,
      ),
      'x-amzn-bedrock-output-token-count': String(usage?.completion ?? 0),
    }),
    begin: (x) =>
      x.begin('application/vnd.amazon.eventstream', {
        'x-amzn-requestid': requestId,
        'x-amzn-bedrock-content-type': 'application/json',
      }),
    event: (x, data) => x.write(Buffer.from(bedrockChunk(data))),
    stopExtra: metrics,
  });
}
