import {
  geminiEmbedToOpenAIRequest,
  geminiEmbedToOpenAIResponse,
  openAIEmbeddingsToGeminiRequest,
  openAIEmbeddingsToGeminiResponse,
} from './index';

describe('embeddings', () => {
  it('converts an OpenAI request to batchEmbedContents', () => {
    expect(
      openAIEmbeddingsToGeminiRequest(
        { model: 'x', input: ['a', 'b'], dimensions: 256 },
        'text-embedding-004',
      ),
    ).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'a' }] },
          outputDimensionality: 256,
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'b' }] },
          outputDimensionality: 256,
        },
      ],
    });
    expect(openAIEmbeddingsToGeminiRequest({ input: 'one' }, 'models/gemini-embedding-001')).toEqual({
      requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'one' }] } }],
    });
  });

  it('converts Gemini requests (batch and single) to OpenAI', () => {
    expect(
      geminiEmbedToOpenAIRequest(
        {
          requests: [
            { model: 'models/e', content: { parts: [{ text: 'a' }] }, outputDimensionality: 8 },
            { model: 'models/e', content: { parts: [{ text: 'b' }, { text: 'c' }] } },
          ],
        },
        'text-embedding-3-small',
      ),
    ).toEqual({ model: 'text-embedding-3-small', input: ['a', 'bc'], dimensions: 8 });
    expect(geminiEmbedToOpenAIRequest({ content: { parts: [{ text: 'solo' }] } }, 'e')).toEqual({
      model: 'e',
      input: ['solo'],
    });
  });

  it('converts responses both ways', () => {
    const openai = geminiEmbedToOpenAIResponse(
      { embeddings: [{ values: [0.1, 0.2] }, { values: [0.3] }] },
      'e',
      6,
    );
    expect(openai).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3] },
      ],
      model: 'e',
      usage: { prompt_tokens: 6, total_tokens: 6 },
    });
    expect(geminiEmbedToOpenAIResponse({ embedding: { values: [1] } }, 'e').data).toEqual([
      { object: 'embedding', index: 0, embedding: [1] },
    ]);
    const unordered = {
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: [2] },
        { object: 'embedding', index: 0, embedding: [1] },
      ],
    };
    expect(openAIEmbeddingsToGeminiResponse(unordered)).toEqual({
      embeddings: [{ values: [1] }, { values: [2] }],
    });
    expect(openAIEmbeddingsToGeminiResponse(unordered, { single: true })).toEqual({
      embedding: { values: [1] },
    });
  });
});
