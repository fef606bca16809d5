/** Vertex AI: service-account JWT (verified with node:crypto), token exchange, regions, URLs and bodies. */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { AdapterRequest, ChannelTarget } from '../../types';
import { neutralSettings } from '../testing';
import {
  parseServiceAccount,
  serviceAccountJwt,
  vertexAdapterFor,
  vertexClaudeAdapter,
  vertexClaudeModelId,
  vertexGeminiAdapter,
  vertexRegion,
} from './index';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'my-project',
  private_key_id: 'kid-123',
  private_key: PEM,
  client_email: 'relay@my-project.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
});

const settings = neutralSettings();

function channel(other = 'us-east5', key = KEY): ChannelTarget {
  return { id: 7, type: 41, baseUrl: '', key, other, organization: '' };
}

function request(model: string, overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    mode: 'chat',
    model,
    stream: false,
    body: { model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    channel: channel(),
    settings,
    accessToken: 'ya29.token',
    ...overrides,
  };
}

function decodeJwt(jwt: string): {
  header: unknown;
  claims: unknown;
  signingInput: string;
  signature: Buffer;
} {
  const [header, claims, signature] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()),
    signingInput: `${header}.${claims}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

describe('service account', () => {
  it('parses the key and defaults token_uri', () => {
    const account = parseServiceAccount(JSON.stringify({ ...JSON.parse(KEY), token_uri: undefined }));
    expect(account).toMatchObject({
      clientEmail: 'relay@my-project.iam.gserviceaccount.com',
      projectId: 'my-project',
      privateKeyId: 'kid-123',
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
  });

  it('refuses keys that are not service-account JSON', () => {
    expect(() => parseServiceAccount('not json')).toThrow(/service-account JSON/);
    expect(() => parseServiceAccount('{"client_email":"a@b"}')).toThrow(/private_key/);
  });

  it('signs an RS256 JWT with the Google claims, verifiable with the public key', () => {
    const jwt = decodeJwt(serviceAccountJwt(parseServiceAccount(KEY), 1_700_000_000));
    expect(jwt.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-123' });
    expect(jwt.claims).toEqual({
      iss: 'relay@my-project.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const verifier = createVerify('RSA-SHA256').update(jwt.signingInput);
    expect(verifier.verify(publicKey, jwt.signature)).toBe(true);
  });
});

describe('vertex credential exchange', () => {
  const exchange = vertexGeminiAdapter.credentials!(channel(), 1_700_000_000)!;

  it('posts the form-encoded JWT bearer grant to token_uri', () => {
    expect(exchange.cacheKey).toBe('vertex:relay@my-project.iam.gserviceaccount.com');
    expect(exchange.request.method).toBe('POST');
    expect(exchange.request.url).toBe('https://oauth2.googleapis.com/token');
    expect(exchange.request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(exchange.request.body as string);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const jwt = decodeJwt(form.get('assertion')!);
    expect(createVerify('RSA-SHA256').update(jwt.signingInput).verify(publicKey, jwt.signature)).toBe(true);
    expect(
      (exchange.request.body as string).startsWith(
        'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=',
      ),
    ).toBe(true);
  });

  it('parses the token answer and reports failures without the key', () => {
    expect(exchange.parse({ access_token: 'ya29.x', expires_in: 3599, token_type: 'Bearer' })).toEqual({
      token: 'ya29.x',
      expiresInSeconds: 3599,
    });
    expect(() =>
      exchange.parse({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }),
    ).toThrow('Google token exchange failed: Invalid JWT Signature.');
  });

  it('is shared by both adapters', () => {
    expect(vertexClaudeAdapter.credentials!(channel(), 1)!.cacheKey).toBe(exchange.cacheKey);
  });
});

describe('vertex regions and model names', () => {
  it('reads a plain region, a model map with a default, or falls back to global', () => {
    expect(vertexRegion('us-central1', 'gemini-2.5-pro')).toBe('us-central1');
    const map = JSON.stringify({ 'claude-sonnet-4-20250514': 'us-east5', default: 'europe-west4' });
    expect(vertexRegion(map, 'claude-sonnet-4-20250514')).toBe('us-east5');
    expect(vertexRegion(map, 'gemini-2.5-pro')).toBe('europe-west4');
    expect(vertexRegion('{"x":"y"}', 'gemini-2.5-pro')).toBe('global');
    expect(vertexRegion('  ', 'gemini-2.5-pro')).toBe('global');
  });

  it('versions Claude names with @', () => {
    expect(vertexClaudeModelId('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModelId('claude-sonnet-4-20250514')).toBe('claude-sonnet-4@20250514');
    expect(vertexClaudeModelId('claude-3-haiku@20240307')).toBe('claude-3-haiku@20240307');
    expect(vertexClaudeModelId('claude-opus-4-1')).toBe('claude-opus-4-1');
  });

  it('picks the adapter by model', () => {
    expect(vertexAdapterFor('claude-3-7-sonnet-20250219')).toBe(vertexClaudeAdapter);
    expect(vertexAdapterFor('gemini-2.0-flash')).toBe(vertexGeminiAdapter);
    expect(vertexClaudeAdapter.format).toBe('anthropic');
    expect(vertexGeminiAdapter.format).toBe('gemini');
  });
});

describe('vertex Claude requests', () => {
  it('uses rawPredict with the vertex anthropic_version and no model field', () => {
    const call = vertexClaudeAdapter.buildRequest(request('claude-3-5-sonnet-20241022'));
    expect(call.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict',
    );
    expect(call.headers.Authorization).toBe('Bearer ya29.token');
    expect(JSON.parse(call.body as string)).toEqual({
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hi' }],
      anthropic_version: 'vertex-2023-10-16',
      stream: false,
    });
  });

  it('streams with streamRawPredict on the global host and sends the model headers', () => {
    const call = vertexClaudeAdapter.buildRequest(
      request('claude-sonnet-4-5-20250929', {
        stream: true,
        channel: channel('global'),
        settings: {
          ...settings,
          claudeModelHeaders: { 'claude-sonnet-4-5-20250929': { 'anthropic-beta': 'context-1m-2025-08-07' } },
        },
      }),
    );
    expect(call.url).toBe(
      'https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    expect(call.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(JSON.parse(call.body as string).stream).toBe(true);
  });

  it('refuses to build a call without an access token', () => {
    expect(() =>
      vertexClaudeAdapter.buildRequest(request('claude-3-haiku-20240307', { accessToken: undefined })),
    ).toThrow(/access token/);
  });
});

describe('vertex Gemini requests', () => {
  it('posts the Gemini body to generateContent', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };
    const call = vertexGeminiAdapter.buildRequest(request('gemini-2.5-pro', { body }));
    expect(call.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(call.body).toBe(JSON.stringify(body));
    expect(call.headers).toEqual({ Authorization: 'Bearer ya29.token', 'Content-Type': 'application/json' });
  });

  it('streams with streamGenerateContent?alt=sse', () => {
    const call = vertexGeminiAdapter.buildRequest(request('gemini-2.0-flash', { stream: true }));
    expect(
      call.url.endsWith('/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse'),
    ).toBe(true);
  });

  it('reads Google and Anthropic error bodies', () => {
    const google =
      '{"error":{"code":403,"message":"Permission denied on resource project my-project.","status":"PERMISSION_DENIED"}}';
    expect(vertexGeminiAdapter.errorMessage!(403, google)).toBe(
      'Permission denied on resource project my-project.',
    );
    expect(vertexGeminiAdapter.errorMessage!(429, `[${google}]`)).toBe(
      'Permission denied on resource project my-project.',
    );
    const anthropic = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(vertexClaudeAdapter.errorMessage!(529, anthropic)).toBe('Overloaded');
  });
});
