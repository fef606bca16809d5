import type { RelayMode } from '../../types';
import { adapterRequest, bodyOf } from '../testing';
import { openaiAdapter } from '.';

const call = (mode: RelayMode, type = 1, baseUrl = 'https://api.openai.com', organization = '') =>
  openaiAdapter.buildRequest(
    adapterRequest({
      mode,
      model: 'gpt-4o',
      body: { model: 'alias', stream: true },
      channel: { type, baseUrl, organization },
    }),
  );

describe('openai adapter', () => {
  it('maps every mode to its /v1 path', () => {
    const paths: Record<RelayMode, string> = {
      chat: '/v1/chat/completions',
      completions: '/v1/completions',
      embeddings: '/v1/embeddings',
      responses: '/v1/responses',
      'responses-compact': '/v1/responses/compact',
      images: '/v1/images/generations',
      'image-edits': '/v1/images/edits',
      speech: '/v1/audio/speech',
      transcriptions: '/v1/audio/transcriptions',
      translations: '/v1/audio/translations',
      moderations: '/v1/moderations',
      rerank: '/v1/rerank',
    };
    expect([...openaiAdapter.modes].sort()).toEqual(Object.keys(paths).sort());
    for (const [mode, path] of Object.entries(paths)) {
      expect(call(mode as RelayMode).url).toBe(`https://api.openai.com${path}`);
    }
  });

  it('uses each provider’s prefix', () => {
    expect(call('chat', 17, 'https://dashscope.aliyuncs.com').url).toBe(
      'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
    );
    expect(call('embeddings', 26, 'https://open.bigmodel.cn').url).toBe(
      'https://open.bigmodel.cn/api/paas/v4/embeddings',
    );
    expect(call('chat', 45, 'https://ark.cn-beijing.volces.com').url).toBe(
      'https://ark.cn-beijing.volces.com/api/v3/chat/completions',
    );
    expect(call('chat', 46, 'https://qianfan.baidubce.com').url).toBe(
      'https://qianfan.baidubce.com/v2/chat/completions',
    );
    expect(call('chat', 27, 'https://api.perplexity.ai').url).toBe(
      'https://api.perplexity.ai/chat/completions',
    );
    expect(call('chat', 35, 'https://api.minimax.chat').url).toBe(
      'https://api.minimax.chat/v1/text/chatcompletion_v2',
    );
    expect(call('embeddings', 35, 'https://api.minimax.chat').url).toBe(
      'https://api.minimax.chat/v1/embeddings',
    );
    expect(call('chat', 20, 'https://openrouter.ai/api').url).toBe(
      'https://openrouter.ai/api/v1/chat/completions',
    );
  });

  it('does not double a version prefix already in the base URL', () => {
    expect(call('chat', 8, 'https://my.proxy/v1').url).toBe('https://my.proxy/v1/chat/completions');
    expect(call('chat', 8, 'https://my.proxy/v1/').url).toBe('https://my.proxy/v1/chat/completions');
    expect(call('chat', 8, 'https://my.proxy').url).toBe('https://my.proxy/v1/chat/completions');
    expect(call('chat', 17, 'https://dashscope.aliyuncs.com/compatible-mode/v1').url).toBe(
      'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
    );
  });

  it('sends Bearer auth, JSON and the organization of OpenAI channels only', () => {
    expect(call('chat').headers).toEqual({
      Authorization: 'Bearer sk-test',
      'Content-Type': 'application/json',
    });
    expect(call('chat', 1, 'https://api.openai.com', 'org-1').headers['OpenAI-Organization']).toBe('org-1');
    expect(call('chat', 8, 'https://my.proxy', 'org-1').headers['OpenAI-Organization']).toBeUndefined();
  });

  it('forwards the body with the upstream model', () => {
    const request = call('chat');
    expect(request.method).toBe('POST');
    expect(bodyOf(request)).toEqual({ model: 'gpt-4o', stream: true });
  });

  it('sends only URL and auth for multipart modes', () => {
    for (const mode of ['transcriptions', 'translations', 'image-edits'] as const) {
      const request = call(mode);
      expect(request.body).toBeUndefined();
      expect(request.headers).toEqual({ Authorization: 'Bearer sk-test' });
    }
  });

  it('passes answers through, filling rerank usage', () => {
    const chat = { id: 'x', choices: [] };
    expect(openaiAdapter.convertResponse?.(chat, adapterRequest())).toEqual(chat);
    const rerank = {
      id: 'r',
      results: [{ index: 0, relevance_score: 0.9 }],
      meta: { tokens: { input_tokens: 12 } },
    };
    expect(openaiAdapter.convertResponse?.(rerank, adapterRequest({ mode: 'rerank' }))).toEqual({
      ...rerank,
      usage: { prompt_tokens: 12, total_tokens: 12 },
    });
  });

  it('extracts error messages', () => {
    expect(openaiAdapter.errorMessage?.(404, '{"error":{"message":"The model does not exist"}}')).toBe(
      'The model does not exist',
    );
    expect(openaiAdapter.errorMessage?.(500, 'upstream exploded')).toBe('upstream exploded');
  });
});
