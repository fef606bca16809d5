import type { JsonObject } from '../../types';
import { anthropicToOpenAIRequest, openAIToAnthropicRequest } from './request';

describe('anthropicToOpenAIRequest', () => {
  it('maps system, text and the sampling parameters', () => {
    expect(
      anthropicToOpenAIRequest({
        model: 'claude-sonnet-4',
        system: [
          { type: 'text', text: 'You are terse.' },
          { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } },
        ],
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'text', text: 'Salut' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'one' },
              { type: 'text', text: 'two' },
            ],
          },
        ],
        max_tokens: 100,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 5,
        stop_sequences: ['END'],
        metadata: { user_id: 'u-1' },
      }),
    ).toEqual({
      model: 'claude-sonnet-4',
      messages: [
        { role: 'system', content: 'You are terse.\nAnswer in French.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Salut' },
        { role: 'user', content: 'one\ntwo' },
      ],
      max_tokens: 100,
      temperature: 0.5,
      top_k: 5,
      top_p: 0.9,
      stop: ['END'],
      user: 'u-1',
    });
  });

  it('takes a string system prompt and asks for usage when streaming', () => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      system: 'Be kind.',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    expect(out.messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'x' },
    ]);
    expect(out.stream).toBe(true);
    expect(out.stream_options).toEqual({ include_usage: true });
  });

  it('maps base64 and url images to image_url parts', () => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'QUJD' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'text', text: 'What are these?' },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,QUJD' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          { type: 'text', text: 'What are these?' },
        ],
      },
    ]);
  });

  it('maps tools, tool_use and tool_result', () => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      max_tokens: 10,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18°C' }] },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Paris' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'rain', is_error: false }],
        },
      ],
    });
    expect(out.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]);
    expect(out.tool_choice).toBe('required');
    expect(out.parallel_tool_calls).toBe(false);
    expect(out.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'user', content: 'And tomorrow?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
    ]);
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'any' }, 'required'],
    [{ type: 'none' }, 'none'],
    [
      { type: 'tool', name: 'f' },
      { type: 'function', function: { name: 'f' } },
    ],
  ])('maps tool_choice %j', (choice, expected) => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      messages: [],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: choice,
    });
    expect(out.tool_choice).toEqual(expected);
  });

  it('leaves tool_choice out without tools', () => {
    expect(anthropicToOpenAIRequest({ model: 'm', messages: [], tool_choice: { type: 'auto' } })).toEqual({
      model: 'm',
      messages: [],
    });
  });

  it.each([
    [1024, 'low'],
    [8000, 'medium'],
    [32000, 'high'],
  ])('maps a thinking budget of %d to reasoning_effort %s', (budget, effort) => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      messages: [],
      thinking: { type: 'enabled', budget_tokens: budget },
    });
    expect(out.reasoning_effort).toBe(effort);
  });
});

describe('anthropicToOpenAIRequest: what a tool returned', () => {
  it('carries images and documents of a tool_result in the user message after the tool message', () => {
    const out = anthropicToOpenAIRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'read a.pdf' },
                { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'PDF' } },
                { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
                { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
              ],
            },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'read a.pdf' },
      {
        role: 'user',
        content: [
          { type: 'file', file: { file_data: 'data:application/pdf;base64,PDF' } },
          { type: 'text', text: 'notes' },
          { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
        ],
      },
    ]);
  });
});

describe('openAIToAnthropicRequest', () => {
  it('sends a file by http(s) URL (a Gemini fileData PDF) as a document URL source', () => {
    const out = openAIToAnthropicRequest(
      {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'file', file: { file_url: 'https://x.test/a.pdf', mime_type: 'application/pdf' } },
              { type: 'text', text: 'sum up' },
            ],
          },
        ],
      },
      { defaultMaxTokens: 100 },
    );
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'url', url: 'https://x.test/a.pdf' } },
          { type: 'text', text: 'sum up' },
        ],
      },
    ]);
  });

  const opts = { defaultMaxTokens: 4096 };

  it('moves system and developer messages up, merges same-role turns and maps parameters', () => {
    expect(
      openAIToAnthropicRequest(
        {
          model: 'claude-sonnet-4',
          messages: [
            { role: 'system', content: 'Be terse.' },
            { role: 'developer', content: [{ type: 'text', text: 'Use French.' }] },
            { role: 'user', content: 'Hi' },
            { role: 'user', content: [{ type: 'text', text: 'there' }] },
            { role: 'assistant', content: 'Salut' },
          ],
          temperature: 1.5,
          top_p: 0.8,
          stop: 'END',
          user: 'u-9',
          stream: true,
          stream_options: { include_usage: true },
          n: 1,
        },
        opts,
      ),
    ).toEqual({
      model: 'claude-sonnet-4',
      system: 'Be terse.\nUse French.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: 'there' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Salut' }] },
      ],
      max_tokens: 4096,
      temperature: 1,
      top_p: 0.8,
      stop_sequences: ['END'],
      stream: true,
      metadata: { user_id: 'u-9' },
    });
  });

  it('takes max_tokens, else max_completion_tokens, and a stop array', () => {
    expect(openAIToAnthropicRequest({ model: 'm', messages: [], max_tokens: 10 }, opts).max_tokens).toBe(10);
    const out = openAIToAnthropicRequest(
      { model: 'm', messages: [], max_completion_tokens: 20, stop: ['a', '', 'b'] },
      opts,
    );
    expect(out.max_tokens).toBe(20);
    expect(out.stop_sequences).toEqual(['a', 'b']);
  });

  it('maps data URL and http images', () => {
    const out = openAIToAnthropicRequest(
      {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
              { type: 'image_url', image_url: { url: 'https://example.com/a.jpg', detail: 'high' } },
              { type: 'image_url', image_url: { url: 'ftp://nope' } },
            ],
          },
        ],
      },
      opts,
    );
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        ],
      },
    ]);
  });

  it('maps tool calls and tool results, tool results first in their user turn', () => {
    const out = openAIToAnthropicRequest(
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              { id: 'call.2', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
          { role: 'tool', tool_call_id: 'call.2', content: [{ type: 'text', text: '25°C' }] },
          { role: 'user', content: 'Thanks' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather',
              parameters: { type: 'object', properties: {} },
            },
          },
        ],
        tool_choice: 'required',
        parallel_tool_calls: false,
      },
      opts,
    );
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '25°C' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
    expect(out.tools).toEqual([
      { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(out.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [
      { type: 'function', function: { name: 'f' } },
      { type: 'tool', name: 'f' },
    ],
  ])('maps tool_choice %j', (choice, expected) => {
    const out = openAIToAnthropicRequest(
      {
        model: 'm',
        messages: [],
        tools: [{ type: 'function', function: { name: 'f' } }],
        tool_choice: choice,
      },
      opts,
    );
    expect(out.tool_choice).toEqual(expected);
    expect(out.tools).toEqual([{ name: 'f', input_schema: { type: 'object', properties: {} } }]);
  });

  it('adds a thinking budget for reasoning_effort when a percentage is given', () => {
    const body = { model: 'm', messages: [], max_tokens: 10000, reasoning_effort: 'high', temperature: 0.2 };
    expect(openAIToAnthropicRequest(body, opts).thinking).toBeUndefined();
    const out = openAIToAnthropicRequest(body, { defaultMaxTokens: 4096, thinkingBudgetPercentage: 0.6 });
    expect(out.thinking).toEqual({ type: 'enabled', budget_tokens: 6000 });
    expect(out.temperature).toBeUndefined();
    const small = openAIToAnthropicRequest(
      { model: 'm', messages: [], reasoning_effort: 'low' },
      { defaultMaxTokens: 1500, thinkingBudgetPercentage: 0.1 },
    );
    expect(small.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('round-trips tool calls through the Anthropic format', () => {
    const openai: JsonObject = {
      model: 'm',
      messages: [
        { role: 'user', content: 'Add 2 and 3' },
        {
          role: 'assistant',
          content: 'Sure.',
          tool_calls: [
            { id: 'call_9', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '5' },
      ],
      max_tokens: 50,
    };
    const back = anthropicToOpenAIRequest(openAIToAnthropicRequest(openai, opts));
    expect(back).toEqual(openai);
  });
});
