import { reassemble } from './reassemble';
import {
  capText,
  pathProblem,
  parsePaths,
  redactHeaders,
  redactKeys,
  redactPaths,
  secretForms,
} from './redact';

const sse = (events: unknown[], done = true) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');

describe('stream reassembly', () => {
  it('OpenAI chat: content, reasoning and tool-call pieces joined; usage and finish kept; pings ignored', () => {
    const text =
      ': ping\n\n' +
      sse([
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' } }],
        },
        { id: 'c1', choices: [{ index: 0, delta: { reasoning_content: 'think ' } }] },
        { id: 'c1', choices: [{ index: 0, delta: { content: 'Hel' } }] },
        { id: 'c1', choices: [{ index: 0, delta: { content: 'lo' } }] },
        {
          id: 'c1',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'get', arguments: '{"city":' },
                  },
                ],
              },
            },
          ],
        },
        {
          id: 'c1',
          choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] } }],
        },
        { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        { id: 'c1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
      ]);
    expect(reassemble(text, 'openai')).toEqual({
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hello',
            reasoning_content: 'think ',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get', arguments: '{"city":"Paris"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  });

  it('Anthropic: text and tool_use blocks rebuilt, tool input parsed, stop reason and usage merged', () => {
    const text = sse(
      [
        {
          type: 'message_start',
          message: {
            id: 'msg',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 5, output_tokens: 1 },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi ' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'there' } },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 't1', name: 'get', input: {} },
        },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '1}' } },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ],
      false,
    );
    expect(reassemble(text, 'anthropic')).toEqual({
      id: 'msg',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: 'Hi there' },
        { type: 'tool_use', id: 't1', name: 'get', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 9 },
    });
  });

  it('Gemini: text parts joined per candidate, the last usage kept', () => {
    const text = sse(
      [
        { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'A' }] } }], modelVersion: 'g' },
        {
          candidates: [
            { index: 0, content: { role: 'model', parts: [{ text: 'B' }] }, finishReason: 'STOP' },
          ],
          usageMetadata: { totalTokenCount: 9 },
        },
      ],
      false,
    );
    expect(reassemble(text, 'gemini')).toEqual({
      candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'AB' }] }, finishReason: 'STOP' }],
      usageMetadata: { totalTokenCount: 9 },
      modelVersion: 'g',
    });
  });

  it('Responses: the final response object; an unknown stream is not reassembled', () => {
    const text = sse(
      [
        { type: 'response.created', response: { id: 'r', status: 'in_progress' } },
        { type: 'response.output_text.delta', delta: 'x' },
        { type: 'response.completed', response: { id: 'r', status: 'completed', output: [] } },
      ],
      false,
    );
    expect(reassemble(text, 'responses')).toEqual({ id: 'r', status: 'completed', output: [] });
    expect(reassemble('data: not json\n\n', 'openai')).toBeNull();
    expect(reassemble(sse([{ hello: 1 }]), 'anthropic')).toBeNull();
  });
});

describe('redaction', () => {
  it('replaces the values the configured paths select, with or without a leading $.', () => {
    const body = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      metadata: { user_id: 'x', keep: 1 },
    };
    redactPaths(body, parsePaths('messages[*].content\n$.metadata.user_id, $.nothing.here'));
    expect(body).toEqual({
      messages: [
        { role: 'user', content: '[REDACTED]' },
        { role: 'user', content: '[REDACTED]' },
      ],
      metadata: { user_id: '[REDACTED]', keep: 1 },
    });
  });

  it('refuses script filters and broken paths, accepts plain ones', () => {
    expect(pathProblem('messages[*].content')).toBeNull();
    expect(pathProblem('$..api_key')).toBeNull();
    expect(pathProblem("$['a b']")).toBeNull();
    expect(pathProblem('$.messages[?(@.role=="user")]')).toMatch(/script/);
    expect(pathProblem('$.(@.length-1)')).toMatch(/script/);
    expect(pathProblem('$.a[')).toMatch(/unbalanced/);
    expect(pathProblem("$['a]")).toMatch(/unbalanced/);
    expect(pathProblem('x'.repeat(600))).toMatch(/512/);
  });

  it('knows every written form of a secret: with and without sk-, without a channel pin, long parts', () => {
    const forms = secretForms(['sk-abcdefghijklmnop0123-7', 'app01|secretsecretsecret12', 'short']);
    for (const f of [
      'sk-abcdefghijklmnop0123-7',
      'abcdefghijklmnop0123-7',
      'abcdefghijklmnop0123',
      'app01|secretsecretsecret12',
      'secretsecretsecret12',
    ])
      expect(forms).toContain(f);
    expect(forms).not.toContain('app01');
    expect(forms).not.toContain('short');
    expect(forms.map((f) => f.length)).toEqual([...forms.map((f) => f.length)].sort((a, b) => b - a));
    expect(redactKeys('k=abcdefghijklmnop0123 and sk-abcdefghijklmnop0123', forms)).toBe(
      'k=[REDACTED] and [REDACTED]',
    );
    expect(
      redactHeaders(
        {
          'sec-websocket-protocol': 'realtime,openai-insecure-api-key.whatever-form,x',
          'x-b': 'abcdefghijklmnop0123',
        },
        forms,
      ),
    ).toEqual({
      'sec-websocket-protocol': 'realtime,openai-insecure-api-key.[REDACTED],x',
      'x-b': '[REDACTED]',
    });
  });

  it('hides the given secrets and key-shaped strings; credential headers', () => {
    expect(
      redactKeys(
        'k=my-secret-value sk-abcdefghijklmnopqrstu AIzaSyA-0123456789abcdefghij Bearer abc.def-123',
        ['my-secret-value'],
      ),
    ).toBe('k=[REDACTED] [REDACTED] [REDACTED] Bearer [REDACTED]');
    expect(
      redactHeaders({
        Authorization: 'Bearer x',
        'x-api-key': 'k',
        'X-Goog-Api-Key': 'g',
        cookie: 'c',
        accept: ['a', 'b'],
        'user-agent': 'ua',
      }),
    ).toEqual({
      Authorization: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'X-Goog-Api-Key': '[REDACTED]',
      cookie: '[REDACTED]',
      accept: 'a, b',
      'user-agent': 'ua',
    });
  });

  it('cuts at the byte cap without splitting a character', () => {
    expect(capText('abc', 10)).toEqual({ text: 'abc', truncated: false });
    const cut = capText('жжжжж', 5);
    expect(cut).toEqual({ text: 'жж', truncated: true });
    expect(capText('a'.repeat(2000), 1024).text).toHaveLength(1024);
  });
});
