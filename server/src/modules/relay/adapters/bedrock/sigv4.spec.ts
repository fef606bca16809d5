/** The synchronous SigV4 signer against @smithy/signature-v4 (the AWS SDK's signer) on the same requests. */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { amzDate, canonicalUri, signSigV4, type AwsCredentials, type SigV4Request } from './sigv4';

const NOW = Date.UTC(2024, 10, 5, 13, 7, 9, 456);

async function smithySign(
  request: SigV4Request,
  credentials: AwsCredentials,
  region: string,
  service: string,
): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const signer = new SignatureV4({ credentials, region, service, sha256: Sha256 });
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    query[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    { signingDate: new Date(NOW) },
  );
  return signed.headers;
}

const credentials: AwsCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

describe('signSigV4 matches @smithy/signature-v4', () => {
  const cases: Array<[string, SigV4Request, AwsCredentials]> = [
    [
      'Bedrock invoke with a colon in the model id',
      {
        method: 'POST',
        url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{"messages":[{"role":"user","content":"héllo ☃"}],"max_tokens":10}',
      },
      credentials,
    ],
    [
      'streaming call with a session token',
      {
        method: 'POST',
        url: 'https://bedrock-runtime.eu-west-3.amazonaws.com/model/eu.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream',
        headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' },
        body: '{}',
      },
      { ...credentials, sessionToken: 'FQoGZXIvYXdzEXAMPLE//token+with/slashes==' },
    ],
    [
      'an ARN model id, a query string and header values with spaces',
      {
        method: 'POST',
        url: 'https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aap-northeast-1%3A123456789012%3Ainference-profile%2Fapac.x/invoke?b=2&a=two%20words&a=1&c=%21',
        headers: { 'content-type': 'application/json', 'x-custom': '  spaced    value ' },
        body: new TextEncoder().encode('binary body'),
      },
      credentials,
    ],
  ];

  it.each(cases)('%s', async (_name, request, creds) => {
    const region = new URL(request.url).hostname.split('.')[1];
    const expected = await smithySign(request, creds, region, 'bedrock');
    const ours = signSigV4(request, creds, { region, service: 'bedrock', nowMs: NOW });
    expect(ours.headers.authorization).toBe(expected.authorization);
    expect(ours.headers['x-amz-date']).toBe(expected['x-amz-date']);
    expect(ours.headers['x-amz-content-sha256']).toBe(expected['x-amz-content-sha256']);
    expect(ours.headers['x-amz-security-token']).toBe(expected['x-amz-security-token']);
  });
});

describe('SigV4 pieces', () => {
  it('formats the date as YYYYMMDDTHHMMSSZ in UTC', () => {
    expect(amzDate(NOW)).toBe('20241105T130709Z');
  });

  it('double-encodes the path and resolves dot segments', () => {
    expect(canonicalUri('/model/a%3A0/invoke')).toBe('/model/a%253A0/invoke');
    expect(canonicalUri('/a/./b/../c//d/')).toBe('/a/c/d/');
  });

  it('builds the canonical request and string to sign of the AWS spec', () => {
    const result = signSigV4(
      { method: 'POST', url: 'https://example.amazonaws.com/', headers: {}, body: '' },
      credentials,
      { region: 'us-east-1', service: 'service', nowMs: Date.UTC(2015, 7, 30, 12, 36, 0) },
    );
    const emptyHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(result.canonicalRequest).toBe(
      [
        'POST',
        '/',
        '',
        'host:example.amazonaws.com',
        `x-amz-content-sha256:${emptyHash}`,
        'x-amz-date:20150830T123600Z',
        '',
        'host;x-amz-content-sha256;x-amz-date',
        emptyHash,
      ].join('\n'),
    );
    expect(result.stringToSign.split('\n').slice(0, 3)).toEqual([
      'AWS4-HMAC-SHA256',
      '20150830T123600Z',
      '20150830/us-east-1/service/aws4_request',
    ]);
  });
});
