import { adapterRequest, bodyOf } from '../testing';
import { jinaAdapter } from '.';

const channel = { type: 38, baseUrl: 'https://api.jina.ai', key: 'jina-key' };

describe('jina adapter', () => {
  it('posts embeddings and rerank to their /v1 endpoints with Bearer auth', () => {
    const embed = jinaAdapter.buildRequest(
      adapterRequest({ mode: 'embeddings', model: 'jina-embeddings-v3', body: { input: ['a'] }, channel }),
    );
    expect(embed.url).toBe('https://api.jina.ai/v1/embeddings');
    expect(embed.headers).toEqual({ Authorization: 'Bearer jina-key', 'Content-Type': 'application/json' });
    expect(bodyOf(embed)).toEqual({ input: ['a'], model: 'jina-embeddings-v3' });

    const rerank = jinaAdapter.buildRequest(
      adapterRequest({
        mode: 'rerank',
        model: 'jina-reranker-v2-base-multilingual',
        body: { query: 'q' },
        channel,
      }),
    );
    expect(rerank.url).toBe('https://api.jina.ai/v1/rerank');
  });

  it('gives rerank answers prompt_tokens', () => {
    const answer = { model: 'm', usage: { total_tokens: 15 }, results: [{ index: 0, relevance_score: 0.5 }] };
    expect(jinaAdapter.convertResponse?.(answer, adapterRequest({ mode: 'rerank', channel }))).toEqual({
      ...answer,
      usage: { total_tokens: 15, prompt_tokens: 15 },
    });
    const embeddings = { object: 'list', data: [], usage: { prompt_tokens: 1, total_tokens: 1 } };
    expect(
      jinaAdapter.convertResponse?.(embeddings, adapterRequest({ mode: 'embeddings', channel })),
    ).toEqual(embeddings);
  });

  it('refuses chat and reads Jina errors', () => {
    expect(() => jinaAdapter.buildRequest(adapterRequest({ mode: 'chat', channel }))).toThrow(
      /does not support/,
    );
    expect(jinaAdapter.errorMessage?.(422, '{"detail":"[RID: x] Input validation error"}')).toBe(
      '[RID: x] Input validation error',
    );
  });
});
