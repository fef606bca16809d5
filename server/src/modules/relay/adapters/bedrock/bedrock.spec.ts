/** Bedrock adapter: key parsing, model ids, the signed call, stream conversion and error text. */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AdapterRequest, ChannelTarget, SseEvent } from '../../types';
import { neutralSettings } from '../testing';
import { bedrockModelId, createBedrockAdapter, parseBedrockKey } from './index';

const NOW = Date.UTC(2025, 0, 2, 3, 4, 5);

const settings = neutralSettings();

function channel(key: string, other = ''): ChannelTarget {
  return { id: 1, type: 33, baseUrl: '', key, other, organization: '' };
}

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    mode: 'chat',
    model: 'claude-3-5-sonnet-20241022',
    stream: false,
    body: {
      model: 'claude-3-5-sonnet-20241022',
      stream: false,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    },
    channel: channel('AKIAEXAMPLE|secretEXAMPLE|us-west-2'),
    settings,
    ...overrides,
  };
}

const adapter = createBedrockAdapter(() => NOW);

describe('parseBedrockKey', () => {
  it('reads "AK|SK|REGION" and an optional session token', () => {
    expect(parseBedrockKey('AK|SK|eu-central-1', '')).toEqual({
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      region: 'eu-central-1',
    });
    expect(parseBedrockKey(' AK|SK|us-east-2|TOKEN ', '').sessionToken).toBe('TOKEN');
  });

  it('reads the JSON form', () => {
    const key = JSON.stringify({
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      region: 'ap-south-1',
      sessionToken: 'T',
    });
    expect(parseBedrockKey(key, '')).toEqual({
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      region: 'ap-south-1',
      sessionToken: 'T',
    });
  });

  it("takes the region from the channel's other field, then us-east-1", () => {
    expect(parseBedrockKey('AK|SK', 'eu-west-1').region).toBe('eu-west-1');
    expect(parseBedrockKey('AK|SK|', '').region).toBe('us-east-1');
    expect(parseBedrockKey('AK|SK|us-west-2', 'eu-west-1').region).toBe('us-west-2');
  });

  it('refuses a key without a secret, without echoing it', () => {
    expect(() => parseBedrockKey('AKIASECRETLOOKING', '')).toThrow(/AK\|SK\|REGION/);
    expect(() => parseBedrockKey('AKIASECRETLOOKING', '')).not.toThrow(/AKIASECRETLOOKING/);
  });
});

describe('bedrockModelId', () => {
  it('maps well-known Anthropic names', () => {
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'us-west-2')).toBe(
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
    );
    expect(bedrockModelId('claude-3-haiku-20240307', 'us-west-2')).toBe(
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    expect(bedrockModelId('claude-2.1', 'us-east-1')).toBe('anthropic.claude-v2:1');
  });

  it('passes Bedrock ids, inference profiles and ARNs through', () => {
    for (const id of [
      'anthropic.claude-v2',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/x',
    ]) {
      expect(bedrockModelId(id, 'us-east-1')).toBe(id);
    }
  });

  it('adds the inference-profile prefix of the region to profile-only models', () => {
    expect(bedrockModelId('claude-sonnet-4-20250514', 'us-east-1')).toBe(
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
    );
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'eu-west-3')).toBe(
      'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
    );
    expect(bedrockModelId('claude-opus-4-1-20250805', 'ap-northeast-1')).toBe(
      'apac.anthropic.claude-opus-4-1-20250805-v1:0',
    );
    expect(bedrockModelId('claude-opus-4-1-20250805', 'sa-east-1')).toBe(
      'anthropic.claude-opus-4-1-20250805-v1:0',
    );
  });

  it('derives unknown dated names and leaves anything else alone', () => {
    expect(bedrockModelId('claude-future-9-20300101', 'sa-east-1')).toBe(
      'anthropic.claude-future-9-20300101-v1:0',
    );
    expect(bedrockModelId('my-custom-model', 'us-east-1')).toBe('my-custom-model');
  });
});

describe('bedrock buildRequest', () => {
  it('posts the Anthropic body without model and stream, with the Bedrock anthropic_version', () => {
    const call = adapter.buildRequest(request());
    expect(call.method).toBe('POST');
    expect(call.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke',
    );
    expect(JSON.parse(call.body as string)).toEqual({
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
      anthropic_version: 'bedrock-2023-05-31',
    });
    expect(call.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'x-amz-date': '20250102T030405Z',
    });
    expect(call.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE\/20250102\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it('signs exactly the bytes it sends (the signature verifies with the AWS SDK signer)', async () => {
    const call = adapter.buildRequest(request({ stream: true }));
    expect(call.url).toMatch(/\/invoke-with-response-stream$/);
    expect(call.headers.accept).toBe('application/vnd.amazon.eventstream');
    const url = new URL(call.url);
    const signer = new SignatureV4({
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secretEXAMPLE' },
      region: 'us-west-2',
      service: 'bedrock',
      sha256: Sha256,
    });
    const signed = await signer.sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: url.hostname,
        path: url.pathname,
        headers: {
          'content-type': call.headers['content-type'],
          accept: call.headers.accept,
          host: url.host,
        },
        body: call.body,
      },
      { signingDate: new Date(NOW) },
    );
    expect(call.headers.authorization).toBe(signed.headers.authorization);
  });

  it('sends the session token and turns an anthropic-beta model header into anthropic_beta', () => {
    const call = adapter.buildRequest(
      request({
        channel: channel(
          JSON.stringify({ accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'TOK' }),
          'eu-west-1',
        ),
        settings: {
          ...settings,
          claudeModelHeaders: { 'claude-3-5-sonnet-20241022': { 'anthropic-beta': 'a-2025, b-2025' } },
        },
      }),
    );
    expect(call.url).toContain('bedrock-runtime.eu-west-1.amazonaws.com');
    expect(call.headers['x-amz-security-token']).toBe('TOK');
    expect(call.headers.authorization).toContain('x-amz-security-token');
    expect(JSON.parse(call.body as string).anthropic_beta).toEqual(['a-2025', 'b-2025']);
  });

  it('declares the Anthropic format, chat only, AWS event-stream framing', () => {
    expect(adapter.format).toBe('anthropic');
    expect(adapter.modes).toEqual(['chat']);
    expect(adapter.framing).toBe('aws-eventstream');
    expect(adapter.convertResponse).toBeUndefined();
  });
});

describe('bedrock stream conversion', () => {
  const chunk = (event: object): SseEvent => ({
    event: 'chunk',
    data: JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdef' }),
  });

  it('decodes each chunk into the Anthropic event it carries', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const start = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3 } } };
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hé ☃' } };
    expect(converter.push(chunk(start))).toEqual([{ event: 'message_start', data: JSON.stringify(start) }]);
    expect(converter.push(chunk(delta))).toEqual([
      { event: 'content_block_delta', data: JSON.stringify(delta) },
    ]);
    expect(converter.push({ event: 'chunk', data: 'not json' })).toEqual([]);
    expect(converter.end()).toEqual([]);
  });

  it('turns an exception message into an Anthropic error event', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const [event] = converter.push({ event: 'throttlingException', data: '{"message":"Too many requests"}' });
    expect(event.event).toBe('error');
    expect(JSON.parse(event.data)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Too many requests' },
    });
  });
});

describe('bedrock errorMessage', () => {
  it('reads {"message"} and {"Message"} bodies', () => {
    expect(
      adapter.errorMessage!(403, '{"message":"The security token included in the request is invalid."}'),
    ).toBe('The security token included in the request is invalid.');
    expect(adapter.errorMessage!(400, '{"Message":"Malformed input request"}')).toBe(
      'Malformed input request',
    );
    expect(adapter.errorMessage!(500, '')).toBe('upstream answered HTTP 500');
  });
});
