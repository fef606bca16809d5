import type { RelayMode } from '../../types';
import { adapterRequest, bodyOf } from '../testing';
import { cloudflareAdapter } from '.';

const call = (mode: RelayMode, other = 'acc123') =>
  cloudflareAdapter.buildRequest(
    adapterRequest({
      mode,
      model: '@cf/meta/llama-3.1-8b-instruct',
      body: { messages: [] },
      channel: { type: 39, baseUrl: 'https://api.cloudflare.com', key: 'cf-token', other },
    }),
  );

describe('cloudflare adapter', () => {
  it('uses the account’s OpenAI-compatible endpoints', () => {
    const base = 'https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1';
    expect(call('chat').url).toBe(`${base}/chat/completions`);
    expect(call('completions').url).toBe(`${base}/completions`);
    expect(call('embeddings').url).toBe(`${base}/embeddings`);
    expect(call('responses').url).toBe(`${base}/responses`);
  });

  it('sends Bearer auth and the body with the upstream model', () => {
    const request = call('chat');
    expect(request.headers).toEqual({ Authorization: 'Bearer cf-token', 'Content-Type': 'application/json' });
    expect(bodyOf(request)).toEqual({ messages: [], model: '@cf/meta/llama-3.1-8b-instruct' });
  });

  it('needs the account id and a supported mode', () => {
    expect(() => call('chat', ' ')).toThrow(/account id/);
    expect(() => call('images')).toThrow(/does not support/);
  });

  it('reads Cloudflare error bodies', () => {
    const body = '{"errors":[{"message":"AiError: Unknown model","code":5007}],"success":false,"result":{}}';
    expect(cloudflareAdapter.errorMessage?.(400, body)).toBe('AiError: Unknown model');
  });
});
