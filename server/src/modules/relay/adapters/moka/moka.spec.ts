import { adapterRequest, bodyOf } from '../testing';
import { mokaAdapter } from '.';

describe('moka adapter', () => {
  const channel = { type: 44, baseUrl: 'https://api.moka.ai', key: 'moka-key' };

  it('posts OpenAI embeddings to /v1/embeddings with Bearer auth', () => {
    const call = mokaAdapter.buildRequest(
      adapterRequest({ mode: 'embeddings', model: 'm3e-base', body: { input: 'hi' }, channel }),
    );
    expect(call.url).toBe('https://api.moka.ai/v1/embeddings');
    expect(call.headers).toEqual({ Authorization: 'Bearer moka-key', 'Content-Type': 'application/json' });
    expect(bodyOf(call)).toEqual({ input: 'hi', model: 'm3e-base' });
  });

  it('serves embeddings only', () => {
    expect(mokaAdapter.modes).toEqual(['embeddings']);
    expect(() => mokaAdapter.buildRequest(adapterRequest({ mode: 'chat', channel }))).toThrow(
      /does not support/,
    );
  });
});
