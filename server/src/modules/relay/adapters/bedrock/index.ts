/**
 * AWS Bedrock, Claude models (channel type 33). Native format: Anthropic messages.
 *
 * POST https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/invoke
 *   (or /invoke-with-response-stream), signed with SigV4 (service "bedrock") at the injected clock.
 * Body: the Anthropic body without `model` and `stream`, with anthropic_version "bedrock-2023-05-31";
 * an `anthropic-beta` model header from the settings becomes the body's `anthropic_beta` list (Bedrock
 * reads betas from the body). The answer is an Anthropic message (no conversion); the stream is AWS
 * event-stream framed, see stream.ts. The channel's base URL is not used: the region decides the host.
 */
import type { AdapterRequest, JsonObject, ProviderAdapter, UpstreamCall } from '../../types';
import { isObj, parseJson, str, upstreamErrorMessage } from '../util';
import { parseBedrockKey } from './credentials';
import { bedrockModelId } from './models';
import { awsUriEncode, signSigV4 } from './sigv4';
import { createBedrockStreamConverter } from './stream';

export { parseBedrockKey, type BedrockCredentials } from './credentials';
export { bedrockModelId } from './models';
export { signSigV4, type AwsCredentials, type SigV4Request, type SigV4Result } from './sigv4';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

function betas(req: AdapterRequest): string[] | undefined {
  const header = req.settings.claudeModelHeaders[req.model]?.['anthropic-beta'];
  const list = header
    ?.split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
  return list && list.length > 0 ? list : undefined;
}

function bedrockBody(req: AdapterRequest): string {
  const { model: _model, stream: _stream, ...rest } = req.body;
  const body: JsonObject = { ...rest, anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  const list = betas(req);
  return JSON.stringify(list && body.anthropic_beta === undefined ? { ...body, anthropic_beta: list } : body);
}

/** `{"message": "..."}` (Bedrock's error shape) first, then the common shapes. */
export function bedrockErrorMessage(status: number, body: string): string {
  const parsed = parseJson(body.trim());
  const message = isObj(parsed) ? (str(parsed.message) ?? str(parsed.Message)) : undefined;
  return upstreamErrorMessage(status, message ?? body);
}

/** The Bedrock adapter; `clock` (ms since the epoch) dates the signatures. */
export function createBedrockAdapter(clock: () => number = Date.now): ProviderAdapter {
  return {
    name: 'bedrock',
    format: 'anthropic',
    modes: ['chat'],
    framing: 'aws-eventstream',

    buildRequest(req): UpstreamCall {
      const credentials = parseBedrockKey(req.channel.key, req.channel.other);
      const modelId = bedrockModelId(req.model, credentials.region);
      const action = req.stream ? 'invoke-with-response-stream' : 'invoke';
      // A channel base URL (a VPC endpoint, a regional proxy) wins over the public regional host.
      const origin = req.channel.baseUrl || `https://bedrock-runtime.${credentials.region}.amazonaws.com`;
      const url = `${origin}/model/${awsUriEncode(modelId)}/${action}`;
      const body = bedrockBody(req);
      const headers = {
        'content-type': 'application/json',
        accept: req.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      };
      const signed = signSigV4({ method: 'POST', url, headers, body }, credentials, {
        region: credentials.region,
        service: 'bedrock',
        nowMs: clock(),
      });
      return { method: 'POST', url, headers: signed.headers, body };
    },

    createStreamConverter: () => createBedrockStreamConverter(),

    errorMessage: bedrockErrorMessage,
  };
}
