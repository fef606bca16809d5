import type { JsonObject } from '../../types';
import { adapterRequest, bodyOf, type RequestOverrides } from '../testing';
import { anthropicAdapter } from '.';

const call = (overrides: RequestOverrides = {}) =>
  anthropicAdapter.buildRequest(
    adapterRequest({
      model: 'claude-sonnet-4',
      body: { messages: [{ role: 'user', content: 'hi' }] },
      ...overrides,
      channel: { type: 14, baseUrl: 'https://api.anthropic.com', key: 'ant-key', ...overrides.channel },
    }),
  );
const body = (overrides: RequestOverrides = {}) => bodyOf(call(overrides)) as JsonObject;

describe('anthropic adapter', () => {
  it('posts to /v1/messages with Anthropic headers', () => {
    const request = call();
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers).toEqual({
      'x-api-key': 'ant-key',
      'anthropic-version': '2023-06-01',
      'Content-Type': 'application/json',
    });
    expect(call({ channel: { baseUrl: 'https://proxy.test/v1' } }).url).toBe(
      'https://proxy.test/v1/messages',
    );
  });

  it('merges the per-model headers of the settings', () => {
    const headers = call({
      settings: { claudeModelHeaders: { 'claude-sonnet-4': { 'anthropic-beta': 'context-1m-2025-08-07' } } },
    }).headers;
    expect(headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(headers['x-api-key']).toBe('ant-key');
  });

  it('fills max_tokens from the settings, then 8192', () => {
    expect(body().max_tokens).toBe(8192);
    expect(body({ settings: { claudeDefaultMaxTokens: { default: 4096 } } }).max_tokens).toBe(4096);
    expect(
      body({ settings: { claudeDefaultMaxTokens: { default: 4096, 'claude-sonnet-4': 64000 } } }).max_tokens,
    ).toBe(64000);
    expect(body({ body: { max_tokens: 100, messages: [] } }).max_tokens).toBe(100);
  });

  it('sets the upstream model and the stream flag', () => {
    expect(body({ model: 'claude-3-5-haiku', stream: true })).toMatchObject({
      model: 'claude-3-5-haiku',
      stream: true,
    });
    expect(body().stream).toBeUndefined();
  });

  describe('thinking adapter', () => {
    const settings = { claudeThinkingAdapterEnabled: true, claudeThinkingBudgetPercentage: 0.5 };

    it('strips -thinking and enables thinking with a share of max_tokens', () => {
      const sent = body({
        model: 'claude-sonnet-4-thinking',
        settings,
        body: { max_tokens: 10000, temperature: 0.3, top_p: 0.9, top_k: 5, messages: [] },
      });
      expect(sent).toEqual({
        model: 'claude-sonnet-4',
        max_tokens: 10000,
        messages: [],
        thinking: { type: 'enabled', budget_tokens: 5000 },
      });
    });

    it('uses the default max_tokens and never goes below the minimum budget', () => {
      expect(body({ model: 'claude-sonnet-4-thinking', settings }).thinking).toEqual({
        type: 'enabled',
        budget_tokens: 4096,
      });
      expect(
        body({ model: 'claude-sonnet-4-thinking', settings, body: { max_tokens: 1500, messages: [] } })
          .thinking,
      ).toEqual({ type: 'enabled', budget_tokens: 1024 });
    });

    it('keeps a thinking block the client sent', () => {
      const thinking = { type: 'enabled', budget_tokens: 2000 };
      expect(
        body({ model: 'claude-sonnet-4-thinking', settings, body: { thinking, messages: [] } }).thinking,
      ).toEqual(thinking);
    });

    it('leaves the model alone when the adapter is off', () => {
      const sent = body({ model: 'claude-sonnet-4-thinking', body: { temperature: 0.3, messages: [] } });
      expect(sent.model).toBe('claude-sonnet-4-thinking');
      expect(sent.thinking).toBeUndefined();
      expect(sent.temperature).toBe(0.3);
    });
  });

  it('only serves chat', () => {
    expect(anthropicAdapter.format).toBe('anthropic');
    expect(() => call({ mode: 'embeddings' })).toThrow(/does not support/);
  });

  it('extracts Anthropic error messages', () => {
    const error = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(anthropicAdapter.errorMessage?.(529, error)).toBe('Overloaded');
  });
});
