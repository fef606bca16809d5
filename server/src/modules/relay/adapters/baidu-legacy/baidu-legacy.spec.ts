/** Baidu legacy: token exchange, endpoints, bodies, answer/embedding/stream conversion and errors. */
import { RelayError } from '../../errors';
import type { AdapterRequest, ChannelTarget, SseEvent } from '../../types';
import { neutralSettings } from '../testing';
import { baiduLegacyAdapter as adapter, chatEndpoint, embeddingEndpoint, parseBaiduKey } from './index';

const channel: ChannelTarget = {
  id: 3,
  type: 15,
  baseUrl: 'https://aip.baidubce.com',
  key: 'myApiKey|mySecret',
  other: '',
  organization: '',
};

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    mode: 'chat',
    model: 'ERNIE-4.0-8K',
    stream: false,
    body: {
      model: 'ERNIE-4.0-8K',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: [{ type: 'text', text: 'Again' }] },
      ],
      temperature: 1.6,
      top_p: 0.8,
      max_tokens: 100,
      stop: 'END',
      user: 'u-1',
    },
    channel,
    settings: neutralSettings(),
    accessToken: '24.abc/def',
    ...overrides,
  };
}

const data = (events: SseEvent[]) => events.map((e) => JSON.parse(e.data));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('baidu credentials', () => {
  const exchange = adapter.credentials!(channel, 0)!;

  it('posts the client-credentials grant to {baseUrl}/oauth/2.0/token', () => {
    const url = new URL(exchange.request.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://aip.baidubce.com/oauth/2.0/token');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'myApiKey',
      client_secret: 'mySecret',
    });
    expect(exchange.request.method).toBe('POST');
    expect(exchange.cacheKey).toMatch(/^baidu:[0-9a-f]{32}$/);
    expect(exchange.cacheKey).not.toContain('mySecret');
  });

  it('parses {access_token, expires_in} and reports failures', () => {
    expect(exchange.parse({ access_token: '24.tok', expires_in: 2592000, scope: 'x' })).toEqual({
      token: '24.tok',
      expiresInSeconds: 2592000,
    });
    expect(() => exchange.parse({ error: 'invalid_client', error_description: 'unknown client id' })).toThrow(
      'Baidu token exchange failed: unknown client id',
    );
  });

  it('refuses keys that are not API_KEY|SECRET_KEY', () => {
    expect(() => parseBaiduKey('onlyone')).toThrow('"API_KEY|SECRET_KEY"');
    expect(() => parseBaiduKey('a|b|c')).toThrow();
  });
});

describe('baidu endpoints', () => {
  it('maps the well-known models and lower-cases the rest', () => {
    expect(chatEndpoint('ERNIE-4.0-8K')).toBe('completions_pro');
    expect(chatEndpoint('ERNIE-3.5-8K')).toBe('completions');
    expect(chatEndpoint('ERNIE-Speed-128K')).toBe('ernie-speed-128k');
    expect(chatEndpoint('ERNIE-4.0-Turbo-8K')).toBe('ernie-4.0-turbo-8k');
    expect(embeddingEndpoint('')).toBe('embedding-v1');
    expect(embeddingEndpoint('bge-large-zh')).toBe('bge_large_zh');
    expect(embeddingEndpoint('Embedding-V1')).toBe('embedding-v1');
  });
});

describe('baidu chat', () => {
  it('builds the chat call with the token in the query and system apart', () => {
    const call = adapter.buildRequest(request());
    expect(call.url).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro?access_token=24.abc%2Fdef',
    );
    expect(JSON.parse(call.body as string)).toEqual({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
      system: 'Be brief.',
      temperature: 1,
      top_p: 0.8,
      stop: ['END'],
      max_output_tokens: 100,
      stream: false,
      user_id: 'u-1',
    });
  });

  it('refuses to build a call without an access token', () => {
    expect(() => adapter.buildRequest(request({ accessToken: undefined }))).toThrow(/access token/);
  });

  it('converts the answer', () => {
    const answer = {
      id: 'as-bcmt5ct4iy',
      object: 'chat.completion',
      created: 1680167072,
      result: '你好！',
      is_truncated: false,
      need_clear_history: false,
      finish_reason: 'normal',
      usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
    };
    expect(adapter.convertResponse!(answer, request())).toEqual({
      id: 'as-bcmt5ct4iy',
      object: 'chat.completion',
      created: 1680167072,
      model: 'ERNIE-4.0-8K',
      choices: [{ index: 0, message: { role: 'assistant', content: '你好！' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
    });
  });

  it('throws a RelayError for {error_code, error_msg} answers', () => {
    const convert = (code: number) => () =>
      adapter.convertResponse!(
        { error_code: code, error_msg: 'Access token invalid or no longer valid' },
        request(),
      );
    expect(thrown(convert(110))).toBeInstanceOf(RelayError);
    expect(thrown(convert(110))).toMatchObject({
      status: 401,
      code: '110',
      text: 'Access token invalid or no longer valid',
    });
    expect(thrown(convert(18))).toMatchObject({ status: 429, retryable: true });
    expect(thrown(convert(336003))).toMatchObject({ status: 400, retryable: false });
    expect(thrown(convert(336000))).toMatchObject({ status: 500, retryable: true });
  });

  it('converts the stream and ends with finish and usage chunks', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const events = [
      {
        id: 'as-1',
        object: 'chat.completion',
        created: 1693291863,
        sentence_id: 0,
        is_end: false,
        result: '你好',
        usage: { prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 },
      },
      {
        id: 'as-1',
        object: 'chat.completion',
        created: 1693291864,
        sentence_id: 1,
        is_end: false,
        result: '，世界',
        usage: { prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 },
      },
      {
        id: 'as-1',
        object: 'chat.completion',
        created: 1693291864,
        sentence_id: 2,
        is_end: true,
        result: '',
        usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 },
      },
    ];
    const out = events.flatMap((e) => converter.push({ data: JSON.stringify(e) }));
    out.push(...converter.end());
    const base = { id: 'as-1', object: 'chat.completion.chunk', created: 1693291863, model: 'ERNIE-4.0-8K' };
    expect(data(out)).toEqual([
      {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '你好' }, finish_reason: null }],
      },
      { ...base, choices: [{ index: 0, delta: { content: '，世界' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 } },
    ]);
  });

  const weatherTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  };

  it('sends tools as ERNIE functions, a named tool_choice, and tool turns as function turns', () => {
    const body: AdapterRequest['body'] = {
      model: 'ERNIE-4.0-8K',
      tools: [weatherTool, { type: 'retrieval' }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
    };
    const sent = JSON.parse(adapter.buildRequest(request({ body })).body as string);
    expect(sent.functions).toEqual([
      {
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]);
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(sent.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
      { role: 'function', name: 'get_weather', content: '{"temp":21}' },
    ]);
    const none = JSON.parse(
      adapter.buildRequest(request({ body: { ...body, tool_choice: 'none' } })).body as string,
    );
    expect(none.functions).toBeUndefined();
    expect(none.tool_choice).toBeUndefined();
  });

  it('converts a function_call answer to tool_calls, plain and streamed', () => {
    const functionCall = {
      name: 'get_weather',
      thoughts: 'Need the weather.',
      arguments: '{"city":"Paris"}',
    };
    const answer = adapter.convertResponse!(
      {
        id: 'as-9',
        created: 5,
        result: '',
        finish_reason: 'function_call',
        function_call: functionCall,
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
      request(),
    );
    expect(answer.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_as-9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ]);
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const out = converter.push({
      data: JSON.stringify({
        id: 'as-9',
        created: 5,
        is_end: true,
        result: '',
        finish_reason: 'function_call',
        function_call: functionCall,
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      }),
    });
    expect(data(out).map((chunk) => chunk.choices[0] ?? chunk.usage)).toEqual([
      {
        index: 0,
        delta: {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_as-9',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
      { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    ]);
  });

  it('reports an error event in the stream', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    expect(
      data(converter.push({ data: '{"error_code":336501,"error_msg":"Rate limit reached for RPM"}' })),
    ).toEqual([{ error: { message: 'Rate limit reached for RPM', type: 'upstream_error', code: '336501' } }]);
    expect(converter.end()).toEqual([]);
  });

  it('reads error bodies', () => {
    expect(
      adapter.errorMessage!(200, '{"error_code":17,"error_msg":"Open api daily request limit reached"}'),
    ).toBe('Open api daily request limit reached');
    expect(
      adapter.errorMessage!(
        401,
        '{"error":"invalid_client","error_description":"Client authentication failed"}',
      ),
    ).toBe('Client authentication failed');
  });
});

describe('baidu embeddings', () => {
  const embeddings = (overrides: Partial<AdapterRequest> = {}) =>
    request({
      mode: 'embeddings',
      model: 'Embedding-V1',
      body: { model: 'Embedding-V1', input: 'hello', user: 'u-2' },
      ...overrides,
    });

  it('posts {input: [...]} to the embeddings endpoint', () => {
    const call = adapter.buildRequest(embeddings());
    expect(call.url).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1?access_token=24.abc%2Fdef',
    );
    expect(JSON.parse(call.body as string)).toEqual({ input: ['hello'], user_id: 'u-2' });
  });

  it('converts the answer to an OpenAI list', () => {
    const answer = {
      id: 'as-x',
      object: 'embedding_list',
      created: 1,
      data: [
        { object: 'embedding', embedding: [0.1, 0.2], index: 0 },
        { object: 'embedding', embedding: [0.3, 0.4], index: 1 },
      ],
      usage: { prompt_tokens: 12, total_tokens: 12 },
    };
    expect(adapter.convertResponse!(answer, embeddings())).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
      ],
      model: 'Embedding-V1',
      usage: { prompt_tokens: 12, total_tokens: 12 },
    });
  });

  it('refuses other modes', () => {
    expect(() => adapter.buildRequest(request({ mode: 'rerank' }))).toThrow(/does not support rerank/);
  });
});
