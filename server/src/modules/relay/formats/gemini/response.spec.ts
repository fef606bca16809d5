import { geminiToOpenAIResponse, geminiUsage, openAIToGeminiResponse } from './index';

/** A call id made up for a Gemini function call without one: random per answer, then its position. */
const madeId = (n: number) => expect.stringMatching(new RegExp(`^call_[A-Za-z0-9_-]{12}_${n}$`));

const usageMetadata = {
  promptTokenCount: 100,
  candidatesTokenCount: 20,
  thoughtsTokenCount: 30,
  cachedContentTokenCount: 40,
  totalTokenCount: 150,
};

describe('geminiToOpenAIResponse', () => {
  it('converts text, thoughts and usage', () => {
    const out = geminiToOpenAIResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'Let me think', thought: true }, { text: 'Hello' }, { text: ' world' }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata,
        modelVersion: 'gemini-2.5-pro',
        responseId: 'abc',
      },
      'gemini-2.5-pro',
      1700000000,
    );
    expect(out).toEqual({
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gemini-2.5-pro',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello world', reasoning_content: 'Let me think' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 30 },
      },
    });
  });

  it('converts function calls and finishes with tool_calls', () => {
    const out = geminiToOpenAIResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' },
                { functionCall: { name: 'clock' } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
      'm',
    );
    expect(out.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: madeId(0),
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Paris"}' },
              extra_content: { google: { thought_signature: 'sig' } },
            },
            { id: madeId(1), type: 'function', function: { name: 'clock', arguments: '{}' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ]);
  });

  it('turns inline images into markdown data-URL images (image models)', () => {
    const out = geminiToOpenAIResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'An apple: ' },
                { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
                { inline_data: { mime_type: 'image/jpeg', data: 'BBBB' } },
                { inlineData: { mimeType: 'audio/wav', data: 'CCCC' } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
      'gemini-2.0-flash-exp',
    );
    expect((out.choices as { message: { content: string } }[])[0].message.content).toBe(
      'An apple: ![image](data:image/png;base64,AAAA)![image](data:image/jpeg;base64,BBBB)',
    );
  });

  it('maps finish reasons', () => {
    const reason = (finishReason: string) =>
      geminiToOpenAIResponse({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason }] }, 'm')
        .choices as { finish_reason: string }[];
    expect(reason('STOP')[0].finish_reason).toBe('stop');
    expect(reason('MAX_TOKENS')[0].finish_reason).toBe('length');
    for (const r of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT']) {
      expect(reason(r)[0].finish_reason).toBe('content_filter');
    }
    expect(reason('OTHER')[0].finish_reason).toBe('stop');
  });

  it('answers a blocked prompt with an empty content_filter message', () => {
    const out = geminiToOpenAIResponse(
      {
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
      },
      'm',
    );
    expect(out.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(out.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 });
  });

  it('keeps every candidate', () => {
    const out = geminiToOpenAIResponse(
      {
        candidates: [
          { content: { parts: [{ text: 'a' }] }, finishReason: 'STOP', index: 0 },
          { content: { parts: [{ text: 'b' }] }, finishReason: 'MAX_TOKENS', index: 1 },
        ],
      },
      'm',
    );
    expect(out.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'a' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'b' }, finish_reason: 'length' },
    ]);
  });
});

describe('call ids made up for Gemini function calls', () => {
  it('differ from one answer to the next (a history never holds one id twice)', () => {
    const answer = {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] },
          finishReason: 'STOP',
        },
      ],
    };
    const idOf = () =>
      (geminiToOpenAIResponse(answer, 'm').choices as { message: { tool_calls: { id: string }[] } }[])[0]
        .message.tool_calls[0].id;
    const ids = new Set([idOf(), idOf(), idOf()]);
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).toEqual(madeId(0));
  });
});

describe('openAIToGeminiResponse', () => {
  it('converts text, reasoning, tool calls and usage', () => {
    const out = openAIToGeminiResponse({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking',
            reasoning_content: 'hmm',
            tool_calls: [
              { id: 'call_x', type: 'function', function: { name: 'weather', arguments: '{"c":1}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 30 },
      },
    });
    expect(out).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'hmm', thought: true },
              { text: 'Checking' },
              { functionCall: { name: 'weather', args: { c: 1 } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { ...usageMetadata },
      modelVersion: 'gpt-4o',
      responseId: 'chatcmpl-1',
    });
  });

  it('maps finish reasons and omits absent cache/thought counts', () => {
    const out = openAIToGeminiResponse({
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
    expect(out.candidates).toEqual([
      { content: { role: 'model', parts: [{ text: 'x' }] }, finishReason: 'MAX_TOKENS', index: 0 },
    ]);
    expect(out.usageMetadata).toEqual({ promptTokenCount: 1, candidatesTokenCount: 2, totalTokenCount: 3 });
    const filtered = openAIToGeminiResponse({
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }],
    });
    expect(filtered.candidates).toEqual([
      { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'SAFETY', index: 0 },
    ]);
  });

  it('round-trips through geminiToOpenAIResponse', () => {
    const gemini = openAIToGeminiResponse({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'f', arguments: '{"a":[1,2]}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    const chat = geminiToOpenAIResponse(gemini, 'm');
    expect(chat.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: madeId(0), type: 'function', function: { name: 'f', arguments: '{"a":[1,2]}' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ]);
  });
});

describe('geminiUsage', () => {
  it('counts thoughts as completion and reports cache, reasoning and modalities', () => {
    expect(
      geminiUsage({
        ...usageMetadata,
        toolUsePromptTokenCount: 5,
        promptTokensDetails: [
          { modality: 'TEXT', tokenCount: 80 },
          { modality: 'IMAGE', tokenCount: 15 },
          { modality: 'AUDIO', tokenCount: 5 },
        ],
      }),
    ).toEqual({
      prompt_tokens: 105,
      completion_tokens: 50,
      cached_tokens: 40,
      cache_creation_tokens: 0,
      reasoning_tokens: 30,
      image_prompt_tokens: 15,
      audio_prompt_tokens: 5,
    });
    expect(geminiUsage(undefined)).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      cached_tokens: 0,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
    });
  });
});
