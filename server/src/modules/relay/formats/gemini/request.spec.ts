import type { JsonObject } from '../../types';
import { geminiToOpenAIRequest, openAIToGeminiRequest, geminiSafetySettings, guessMimeType } from './index';
import { GEMINI_SKIP_SIGNATURE } from './request';

describe('geminiToOpenAIRequest', () => {
  it('converts text, system instruction and generation config', () => {
    const out = geminiToOpenAIRequest(
      {
        systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Hello' }] },
          { role: 'model', parts: [{ text: 'Hi' }, { text: ' there', thought: false }] },
          { role: 'user', parts: [{ text: 'Bye' }] },
        ],
        generationConfig: {
          temperature: 0.3,
          topP: 0.9,
          topK: 40,
          maxOutputTokens: 256,
          stopSequences: ['END'],
          candidateCount: 2,
        },
      },
      'gpt-4o',
      false,
    );
    expect(out).toEqual({
      model: 'gpt-4o',
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.\nBe kind.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi there' },
        { role: 'user', content: 'Bye' },
      ],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      max_tokens: 256,
      stop: ['END'],
      n: 2,
    });
  });

  it('asks for usage when streaming and accepts snake_case fields', () => {
    const out = geminiToOpenAIRequest(
      {
        system_instruction: { parts: [{ text: 'sys' }] },
        contents: [{ parts: [{ inline_data: { mime_type: 'image/png', data: 'AAAA' } }, { text: 'what?' }] }],
        generation_config: { max_output_tokens: 10 },
      },
      'm',
      true,
    );
    expect(out.stream).toBe(true);
    expect(out.stream_options).toEqual({ include_usage: true });
    expect(out.max_tokens).toBe(10);
    expect(out.messages).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: 'what?' },
        ],
      },
    ]);
  });

  it('maps inline audio, documents and file URIs', () => {
    const out = geminiToOpenAIRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'audio/mpeg', data: 'AUD' } },
              { inlineData: { mimeType: 'application/pdf', data: 'PDF' } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x.test/a.jpg' } },
            ],
          },
        ],
      },
      'm',
      false,
    );
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_audio', input_audio: { data: 'AUD', format: 'mp3' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,PDF' } },
          { type: 'image_url', image_url: { url: 'https://x.test/a.jpg' } },
        ],
      },
    ]);
  });

  it('passes a fileData that is not an image as a file by URL (read by the Anthropic conversion)', () => {
    const out = geminiToOpenAIRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              {
                fileData: { mimeType: 'application/pdf', fileUri: 'https://x.test/a.pdf', displayName: 'a' },
              },
              { file_data: { file_uri: 'https://x.test/b.pdf' } },
              { fileData: { fileUri: 'https://x.test/c.png' } },
            ],
          },
        ],
      },
      'm',
      false,
    );
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'file',
            file: { file_url: 'https://x.test/a.pdf', mime_type: 'application/pdf', filename: 'a' },
          },
          { type: 'file', file: { file_url: 'https://x.test/b.pdf', mime_type: 'application/pdf' } },
          { type: 'image_url', image_url: { url: 'https://x.test/c.png' } },
        ],
      },
    ]);
    // And back to Gemini as the same fileData.
    expect(openAIToGeminiRequest({ messages: out.messages }).contents).toEqual([
      {
        role: 'user',
        parts: [
          { fileData: { mimeType: 'application/pdf', fileUri: 'https://x.test/a.pdf' } },
          { fileData: { mimeType: 'application/pdf', fileUri: 'https://x.test/b.pdf' } },
          { fileData: { mimeType: 'image/png', fileUri: 'https://x.test/c.png' } },
        ],
      },
    ]);
  });

  it('turns function calls and responses into tool_calls and tool messages with matching ids', () => {
    const out = geminiToOpenAIRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
          {
            role: 'model',
            parts: [
              { thought: true, text: 'thinking...' },
              { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig1' },
              { functionCall: { name: 'weather', args: { city: 'Rome' } } },
              { functionCall: { name: 'time', args: {} } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'time', response: { content: '12:00' } } },
              { functionResponse: { name: 'weather', response: { temp: 20 } } },
              { functionResponse: { name: 'weather', response: { temp: 25 } } },
            ],
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'weather',
                description: 'Get weather',
                parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
              },
            ],
          },
          { googleSearch: {} },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
      },
      'm',
      false,
    );
    expect(out.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Paris"}' },
            extra_content: { google: { thought_signature: 'sig1' } },
          },
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
      { role: 'tool', tool_call_id: 'call_0', content: '{"temp":20}' },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":25}' },
    ]);
    expect(out.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Get weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]);
    expect(out.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
  });

  it('maps function calling modes', () => {
    const mode = (m: string) =>
      geminiToOpenAIRequest({ contents: [], toolConfig: { functionCallingConfig: { mode: m } } }, 'm', false)
        .tool_choice;
    expect(mode('AUTO')).toBe('auto');
    expect(mode('ANY')).toBe('required');
    expect(mode('NONE')).toBe('none');
  });

  it('maps JSON output and thinking budget', () => {
    const json = geminiToOpenAIRequest(
      { contents: [], generationConfig: { responseMimeType: 'application/json' } },
      'm',
      false,
    );
    expect(json.response_format).toEqual({ type: 'json_object' });
    const schema = geminiToOpenAIRequest(
      {
        contents: [],
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: { type: 'ARRAY', items: { type: 'STRING', nullable: true } },
          thinkingConfig: { thinkingBudget: 20000 },
        },
      },
      'm',
      false,
    );
    expect(schema.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'array', items: { type: ['string', 'null'] } } },
    });
    expect(schema.reasoning_effort).toBe('high');
    const effort = (budget: number) =>
      geminiToOpenAIRequest(
        { contents: [], generationConfig: { thinkingConfig: { thinkingBudget: budget } } },
        'm',
        false,
      ).reasoning_effort;
    expect([effort(0), effort(-1), effort(512), effort(4096)]).toEqual(['none', 'medium', 'low', 'medium']);
  });
});

describe('openAIToGeminiRequest', () => {
  it('converts system, roles, merging and generation config', () => {
    const out = openAIToGeminiRequest({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use French.' }] },
        { role: 'user', content: 'Hello' },
        { role: 'user', content: 'Are you there?' },
        { role: 'assistant', content: 'Oui.' },
        { role: 'user', content: 'Merci' },
      ],
      temperature: 0.5,
      top_p: 0.8,
      max_completion_tokens: 100,
      stop: 'STOP',
      n: 2,
      response_format: { type: 'json_object' },
    });
    expect(out).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use French.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }, { text: 'Are you there?' }] },
        { role: 'model', parts: [{ text: 'Oui.' }] },
        { role: 'user', parts: [{ text: 'Merci' }] },
      ],
      generationConfig: {
        temperature: 0.5,
        topP: 0.8,
        candidateCount: 2,
        maxOutputTokens: 100,
        stopSequences: ['STOP'],
        responseMimeType: 'application/json',
      },
    });
  });

  it('converts data-URL and http images', () => {
    const out = openAIToGeminiRequest({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGR' } },
            { type: 'image_url', image_url: { url: 'https://x.test/cat.PNG?size=2' } },
            { type: 'image_url', image_url: { url: 'https://x.test/render' } },
          ],
        },
      ],
    });
    expect(out.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Compare' },
          { inlineData: { mimeType: 'image/webp', data: 'UklGR' } },
          { fileData: { mimeType: 'image/png', fileUri: 'https://x.test/cat.PNG?size=2' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x.test/render' } },
        ],
      },
    ]);
    expect(guessMimeType('https://a.test/doc.pdf')).toBe('application/pdf');
  });

  it('converts tools, tool calls and tool results', () => {
    const out = openAIToGeminiRequest({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'clock', arguments: '{}' },
              extra_content: { google: { thought_signature: 'real-sig' } },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp":20}' },
        { role: 'tool', tool_call_id: 'call_b', content: 'noon' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Get weather',
            strict: true,
            parameters: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              additionalProperties: false,
              properties: {
                city: { type: 'string', format: 'uri', description: 'City' },
                unit: { type: ['string', 'null'], enum: ['c', 'f'] },
                strict: { $ref: '#/$defs/flag' },
              },
              required: ['city'],
              $defs: { flag: { type: 'boolean', additionalProperties: false } },
            },
          },
        },
        { type: 'function', function: { name: 'clock', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: 'required',
    });
    expect(out.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'weather', args: { city: 'Paris' } },
            thoughtSignature: GEMINI_SKIP_SIGNATURE,
          },
          { functionCall: { name: 'clock', args: {} }, thoughtSignature: 'real-sig' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { temp: 20 } } },
          { functionResponse: { name: 'clock', response: { content: 'noon' } } },
        ],
      },
    ]);
    expect(out.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Get weather',
            // JSON Schema as sent (additionalProperties and $defs kept), without $schema and the
            // string formats Gemini does not know.
            parametersJsonSchema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                city: { type: 'string', description: 'City' },
                unit: { type: ['string', 'null'], enum: ['c', 'f'] },
                strict: { $ref: '#/$defs/flag' },
              },
              required: ['city'],
              $defs: { flag: { type: 'boolean', additionalProperties: false } },
            },
          },
          { name: 'clock' },
        ],
      },
    ]);
    expect(out.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    const named = openAIToGeminiRequest({
      messages: [],
      tool_choice: { type: 'function', function: { name: 'weather' } },
    });
    expect(named.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] },
    });
  });

  it('round-trips a tool conversation through both directions', () => {
    const chat: JsonObject = {
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"c":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"t":2}' },
      ],
    };
    const back = geminiToOpenAIRequest(openAIToGeminiRequest(chat), 'm', false);
    expect(back.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'weather', arguments: '{"c":1}' },
            extra_content: { google: { thought_signature: GEMINI_SKIP_SIGNATURE } },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '{"t":2}' },
    ]);
  });

  it('maps response_format json_schema to responseJsonSchema, additionalProperties kept', () => {
    const out = openAIToGeminiRequest({
      messages: [],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'x',
          strict: true,
          schema: { type: 'object', properties: { a: { const: 'k' } }, additionalProperties: false },
        },
      },
    });
    expect(out.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { a: { const: 'k' } }, additionalProperties: false },
    });
  });

  it('maps reasoning effort and the thinking budget percentage', () => {
    const effort = openAIToGeminiRequest({ messages: [], reasoning_effort: 'low' });
    expect(effort.generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    const none = openAIToGeminiRequest({ messages: [], reasoning_effort: 'none' });
    expect(none.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    const share = openAIToGeminiRequest(
      { messages: [], max_tokens: 1000 },
      { thinkingBudgetPercentage: 0.6 },
    );
    expect(share.generationConfig).toEqual({
      maxOutputTokens: 1000,
      thinkingConfig: { thinkingBudget: 600, includeThoughts: true },
    });
    const percent = openAIToGeminiRequest(
      { messages: [], max_tokens: 1000 },
      { thinkingBudgetPercentage: 25 },
    );
    expect(percent.generationConfig).toMatchObject({ thinkingConfig: { thinkingBudget: 250 } });
  });

  it('lists safety settings with a default for the standard categories', () => {
    const out = openAIToGeminiRequest(
      { messages: [{ role: 'user', content: 'hi' }] },
      {
        safetySettings: {
          default: 'BLOCK_NONE',
          HARM_CATEGORY_HARASSMENT: 'OFF',
          HARM_CATEGORY_IMAGE_HATE: 'X',
        },
      },
    );
    expect(out.safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
      { category: 'HARM_CATEGORY_IMAGE_HATE', threshold: 'X' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
    ]);
    expect(geminiSafetySettings({ HARM_CATEGORY_HATE_SPEECH: 'BLOCK_ONLY_HIGH' })).toEqual([
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
    ]);
    expect(openAIToGeminiRequest({ messages: [] }).safetySettings).toBeUndefined();
  });
});
