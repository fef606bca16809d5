import type { JsonObject } from '../../types';
import { openAIToResponsesRequest, responsesToOpenAIRequest } from './index';

describe('responsesToOpenAIRequest', () => {
  it('converts a string input with instructions and sampling options', () => {
    expect(
      responsesToOpenAIRequest({
        model: 'gpt-4.1',
        instructions: 'Be brief.',
        input: 'Hello',
        max_output_tokens: 50,
        temperature: 0.2,
        top_p: 0.9,
        stream: true,
        reasoning: { effort: 'low', summary: 'auto' },
        store: true,
        previous_response_id: null,
      }),
    ).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 50,
      reasoning_effort: 'low',
    });
  });

  it('converts message items with text, images and files', () => {
    const out = responsesToOpenAIRequest({
      model: 'm',
      input: [
        { role: 'developer', content: 'Answer in French.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'https://x.test/a.png', detail: 'high' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,AA', filename: 'a.pdf' },
          ],
        },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Un chat.', annotations: [] }],
        },
        { role: 'user', content: [{ type: 'input_text', text: 'Merci' }] },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'system', content: 'Answer in French.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'high' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,AA', filename: 'a.pdf' } },
        ],
      },
      { role: 'assistant', content: 'Un chat.' },
      { role: 'user', content: 'Merci' },
    ]);
    expect(out.stream).toBe(false);
    expect(out.stream_options).toBeUndefined();
  });

  it('converts function calls, outputs, tools, tool_choice and text.format', () => {
    const out = responsesToOpenAIRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'weather',
          arguments: '{"city":"Paris"}',
        },
        {
          type: 'function_call',
          id: 'fc_2',
          call_id: 'call_2',
          name: 'weather',
          arguments: '{"city":"Rome"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '20C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '25C' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Get weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { type: 'web_search' },
      ],
      tool_choice: { type: 'function', name: 'weather' },
      parallel_tool_calls: false,
      text: {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
    });
    expect(out.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '20C' },
      { role: 'tool', tool_call_id: 'call_2', content: '25C' },
    ]);
    expect(out.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Get weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
      },
    ]);
    expect(out.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    expect(out.parallel_tool_calls).toBe(false);
    expect(out.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
    });
    expect(out.verbosity).toBe('low');
  });

  it('attaches function calls to the assistant message before them', () => {
    const out = responsesToOpenAIRequest({
      input: [
        { role: 'assistant', content: 'Let me check.' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
    });
    expect(out.messages).toEqual([
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
  });
});

describe('openAIToResponsesRequest', () => {
  it('converts messages, tools and options', () => {
    const out = openAIToResponsesRequest({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        { role: 'developer', content: 'Late rule' },
      ],
      max_completion_tokens: 300,
      temperature: 1,
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: 'high',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 's', schema: { type: 'object' }, strict: true },
      },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
    });
    expect(out).toEqual({
      model: 'gpt-5',
      instructions: 'Be brief.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'data:image/png;base64,AA', detail: 'auto' },
          ],
        },
        { type: 'message', role: 'assistant', content: 'Checking' },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        { type: 'message', role: 'developer', content: 'Late rule' },
      ],
      temperature: 1,
      stream: true,
      store: false,
      max_output_tokens: 300,
      reasoning: { effort: 'high' },
      text: { format: { type: 'json_schema', name: 's', schema: { type: 'object' }, strict: true } },
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      tool_choice: { type: 'function', name: 'f' },
    });
  });

  it('round-trips a tool conversation', () => {
    const chat: JsonObject = {
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'done' },
      ],
      max_tokens: 10,
    };
    const back = responsesToOpenAIRequest(openAIToResponsesRequest(chat));
    expect(back.messages).toEqual(chat.messages);
    expect(back.max_tokens).toBe(10);
  });
});
