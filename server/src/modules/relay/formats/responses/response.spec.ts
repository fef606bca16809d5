import { openAIToResponsesResponse, responsesToOpenAIResponse, responsesUsage } from './index';

const chatUsage = {
  prompt_tokens: 100,
  completion_tokens: 50,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 40 },
  completion_tokens_details: { reasoning_tokens: 30 },
};
const responsesUsageBody = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 40 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 150,
};

describe('openAIToResponsesResponse', () => {
  it('converts text, reasoning and usage', () => {
    const out = openAIToResponsesResponse(
      {
        id: 'chatcmpl-abc',
        object: 'chat.completion',
        created: 1700000000,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hello', reasoning_content: 'thinking' },
            finish_reason: 'stop',
          },
        ],
        usage: chatUsage,
      },
      {},
    );
    expect(out).toMatchObject({
      id: 'resp_abc',
      object: 'response',
      created_at: 1700000000,
      status: 'completed',
      incomplete_details: null,
      model: 'gpt-4o',
      output: [
        {
          type: 'reasoning',
          id: 'rs_abc_0',
          status: 'completed',
          summary: [{ type: 'summary_text', text: 'thinking' }],
        },
        {
          type: 'message',
          id: 'msg_abc_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
        },
      ],
      usage: responsesUsageBody,
    });
  });

  it('converts tool calls, uses the given id and marks length as incomplete', () => {
    const out = openAIToResponsesResponse(
      {
        id: 'chatcmpl-x',
        model: 'm',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
                { id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      { id: 'resp_given', createdAt: 5 },
    );
    expect(out).toMatchObject({
      id: 'resp_given',
      created_at: 5,
      status: 'completed',
      output: [
        {
          type: 'function_call',
          id: 'fc_given_0',
          call_id: 'call_1',
          name: 'f',
          arguments: '{"a":1}',
          status: 'completed',
        },
        {
          type: 'function_call',
          id: 'fc_given_1',
          call_id: 'call_2',
          name: 'g',
          arguments: '{}',
          status: 'completed',
        },
      ],
      usage: null,
    });
    const cut = openAIToResponsesResponse({
      choices: [{ index: 0, message: { role: 'assistant', content: 'par' }, finish_reason: 'length' }],
    });
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });
});

describe('openAIToResponsesResponse against the Responses document', () => {
  it('reports cache writes, gives output_text its logprobs, declares no store, echoes the request', () => {
    const out = openAIToResponsesResponse(
      {
        id: 'chatcmpl-c',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'length' }],
        usage: { ...chatUsage, prompt_tokens_details: { cached_tokens: 5, cache_creation_tokens: 2 } },
      },
      { request: { input: 'hi', instructions: 'Be brief.', temperature: 0.3, tool_choice: 'required' } },
    );
    expect('store' in out).toBe(false);
    expect(out.usage).toMatchObject({ input_tokens_details: { cached_tokens: 5, cache_write_tokens: 2 } });
    expect(out).toMatchObject({
      status: 'incomplete',
      instructions: 'Be brief.',
      temperature: 0.3,
      tool_choice: 'required',
      output: [
        {
          type: 'message',
          status: 'incomplete',
          content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }],
        },
      ],
    });
  });
});

describe('responsesToOpenAIResponse', () => {
  it('converts messages, reasoning, function calls and usage', () => {
    const out = responsesToOpenAIResponse({
      id: 'resp_123',
      object: 'response',
      created_at: 9,
      model: 'o4-mini',
      status: 'completed',
      output: [
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [
            { type: 'summary_text', text: 'a' },
            { type: 'summary_text', text: 'b' },
          ],
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Calling', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_9',
          name: 'f',
          arguments: '{}',
          status: 'completed',
        },
      ],
      usage: responsesUsageBody,
    });
    expect(out).toEqual({
      id: 'chatcmpl-123',
      object: 'chat.completion',
      created: 9,
      model: 'o4-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Calling',
            reasoning_content: 'a\n\nb',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: chatUsage,
    });
  });

  it('maps incomplete responses to length and content_filter', () => {
    const finish = (reason: string) =>
      (
        responsesToOpenAIResponse({ status: 'incomplete', incomplete_details: { reason }, output: [] })
          .choices as {
          finish_reason: string;
        }[]
      )[0].finish_reason;
    expect(finish('max_output_tokens')).toBe('length');
    expect(finish('content_filter')).toBe('content_filter');
  });

  it('round-trips a chat completion', () => {
    const chat = {
      id: 'chatcmpl-r',
      object: 'chat.completion',
      created: 3,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi', reasoning_content: 'why' },
          finish_reason: 'stop',
        },
      ],
      usage: chatUsage,
    };
    expect(responsesToOpenAIResponse(openAIToResponsesResponse(chat))).toEqual(chat);
  });
});

describe('responsesUsage', () => {
  it('reads input, output, cached and reasoning tokens', () => {
    expect(responsesUsage(responsesUsageBody)).toEqual({
      prompt_tokens: 100,
      completion_tokens: 50,
      cached_tokens: 40,
      cache_creation_tokens: 0,
      reasoning_tokens: 30,
    });
    expect(responsesUsage(null).prompt_tokens).toBe(0);
  });
});
