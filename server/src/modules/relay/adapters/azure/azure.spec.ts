import type { RelayMode } from '../../types';
import { adapterRequest, bodyOf } from '../testing';
import { azureAdapter } from '.';

const call = (mode: RelayMode, other = '') =>
  azureAdapter.buildRequest(
    adapterRequest({
      mode,
      model: 'gpt-4o',
      body: { messages: [] },
      channel: { type: 3, baseUrl: 'https://res.openai.azure.com/', key: 'az-key', other },
    }),
  );

describe('azure adapter', () => {
  it('calls the deployment named after the model with the default API version', () => {
    expect(call('chat').url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-04-01-preview',
    );
    expect(call('embeddings', '2024-10-21').url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-4o/embeddings?api-version=2024-10-21',
    );
    expect(call('images').url).toContain('/deployments/gpt-4o/images/generations?');
    expect(call('speech').url).toContain('/deployments/gpt-4o/audio/speech?');
    expect(call('transcriptions').url).toContain('/deployments/gpt-4o/audio/transcriptions?');
  });

  it('keeps the model name as the deployment name', () => {
    const request = azureAdapter.buildRequest(
      adapterRequest({ model: 'gpt-3.5-turbo', channel: { baseUrl: 'https://res.openai.azure.com' } }),
    );
    expect(request.url).toContain('/openai/deployments/gpt-3.5-turbo/chat/completions?');
  });

  it('calls the Responses API outside deployments', () => {
    expect(call('responses', '2025-04-01-preview').url).toBe(
      'https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview',
    );
  });

  it('authenticates with api-key and forwards the body', () => {
    const request = call('chat');
    expect(request.headers).toEqual({ 'api-key': 'az-key', 'Content-Type': 'application/json' });
    expect(bodyOf(request)).toEqual({ messages: [], model: 'gpt-4o' });
    expect(call('translations').headers).toEqual({ 'api-key': 'az-key' });
    expect(call('translations').body).toBeUndefined();
  });

  it('refuses modes Azure does not serve', () => {
    expect(azureAdapter.modes).not.toContain('rerank');
    expect(() => call('rerank')).toThrow(/does not support rerank/);
  });
});
