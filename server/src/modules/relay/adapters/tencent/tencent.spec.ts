/** Tencent Hunyuan: TC3 signature (Tencent's documented example), request, answer, stream and errors. */
import { createHash, createHmac } from 'node:crypto';
import { RelayError } from '../../errors';
import type { AdapterRequest, SseEvent } from '../../types';
import { neutralSettings } from '../testing';
import { createTencentAdapter, parseTencentKey, tc3Sign } from './index';

const NOW_MS = 1_717_000_000_999;
const NOW_S = 1_717_000_000;
const adapter = createTencentAdapter(() => NOW_MS);

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    mode: 'chat',
    model: 'hunyuan-standard',
    stream: false,
    body: {
      model: 'hunyuan-standard',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: '你好' }] },
        { role: 'tool', content: 'result' },
      ],
      temperature: 0.7,
      top_p: 0.9,
    },
    channel: {
      id: 5,
      type: 23,
      baseUrl: 'https://hunyuan.tencentcloudapi.com',
      key: '1250000000|AKIDsecretid|secretKEY',
      other: '',
      organization: '',
    },
    settings: neutralSettings(),
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

describe('tc3Sign', () => {
  // The worked example of Tencent Cloud's "Signature v3" document (CVM DescribeInstances).
  const example = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
    service: 'cvm',
    host: 'cvm.tencentcloudapi.com',
    contentType: 'application/json; charset=utf-8',
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
    timestamp: 1551113065,
  };

  it("reproduces the documented example's intermediate values and signature", () => {
    const result = tc3Sign(example);
    expect(result.canonicalRequest).toBe(
      [
        'POST',
        '/',
        '',
        'content-type:application/json; charset=utf-8',
        'host:cvm.tencentcloudapi.com',
        '',
        'content-type;host',
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
      ].join('\n'),
    );
    expect(result.stringToSign).toBe(
      [
        'TC3-HMAC-SHA256',
        '1551113065',
        '2019-02-25/cvm/tc3_request',
        '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
      ].join('\n'),
    );
    expect(result.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(result.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

describe('parseTencentKey', () => {
  it('reads both key forms', () => {
    expect(parseTencentKey('1250|AKID|SK')).toEqual({ appId: '1250', secretId: 'AKID', secretKey: 'SK' });
    expect(parseTencentKey('AKID|SK')).toEqual({ secretId: 'AKID', secretKey: 'SK' });
    expect(() => parseTencentKey('AKID')).toThrow('"APPID|SecretId|SecretKey"');
    expect(() => parseTencentKey('a||c')).toThrow();
  });
});

describe('tencent buildRequest', () => {
  it('posts the Hunyuan body with the TC3 headers', () => {
    const call = adapter.buildRequest(request());
    expect(call.url).toBe('https://hunyuan.tencentcloudapi.com/');
    expect(call.body).toBe(
      JSON.stringify({
        Model: 'hunyuan-standard',
        Messages: [
          { Role: 'system', Content: 'Be brief.' },
          { Role: 'user', Content: '你好' },
          { Role: 'tool', Content: 'result', ToolCallId: '' },
        ],
        Stream: false,
        Temperature: 0.7,
        TopP: 0.9,
      }),
    );
    expect(call.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-TC-Action': 'ChatCompletions',
      'X-TC-Version': '2023-09-01',
      'X-TC-Timestamp': String(NOW_S),
    });
    expect(call.headers['X-TC-Region']).toBeUndefined();
  });

  it('signs what it sends (independent step-by-step computation)', () => {
    const call = adapter.buildRequest(
      request({ stream: true, channel: { ...request().channel, other: 'ap-guangzhou' } }),
    );
    expect(call.headers['X-TC-Region']).toBe('ap-guangzhou');
    expect(JSON.parse(call.body as string).Stream).toBe(true);
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const mac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();
    const canonical = `POST\n/\n\ncontent-type:application/json\nhost:hunyuan.tencentcloudapi.com\n\ncontent-type;host\n${sha(call.body as string)}`;
    const date = new Date(NOW_S * 1000).toISOString().slice(0, 10);
    const toSign = `TC3-HMAC-SHA256\n${NOW_S}\n${date}/hunyuan/tc3_request\n${sha(canonical)}`;
    const key = mac(mac(mac('TC3secretKEY', date), 'hunyuan'), 'tc3_request');
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    expect(call.headers.Authorization).toBe(
      `TC3-HMAC-SHA256 Credential=AKIDsecretid/${date}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`,
    );
  });
});

describe('tencent answers', () => {
  it('converts a ChatCompletions answer', () => {
    const answer = {
      Response: {
        RequestId: 'req-1',
        Note: '以上内容为AI生成',
        Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: '你好！' } }],
        Created: 1715000000,
        Id: 'hy-1',
        Usage: { PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7 },
      },
    };
    expect(adapter.convertResponse!(answer, request())).toEqual({
      id: 'hy-1',
      object: 'chat.completion',
      created: 1715000000,
      model: 'hunyuan-standard',
      choices: [{ index: 0, message: { role: 'assistant', content: '你好！' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  });

  it('throws a RelayError for {Response: {Error}}', () => {
    const answer = {
      Response: {
        Error: {
          Code: 'AuthFailure.SignatureFailure',
          Message: 'The provided credentials could not be validated.',
        },
        RequestId: 'r',
      },
    };
    const error = thrown(() => adapter.convertResponse!(answer, request()));
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).status).toBe(401);
    expect((error as RelayError).text).toBe('The provided credentials could not be validated.');
    expect((error as RelayError).code).toBe('AuthFailure.SignatureFailure');
    const limited = { Response: { Error: { Code: 'LimitExceeded', Message: 'too many' } } };
    expect((thrown(() => adapter.convertResponse!(limited, request())) as RelayError).status).toBe(429);
  });

  it('reads error bodies', () => {
    expect(
      adapter.errorMessage!(
        200,
        '{"Response":{"Error":{"Code":"InvalidParameter","Message":"Messages 不能为空"}}}',
      ),
    ).toBe('Messages 不能为空');
    expect(adapter.errorMessage!(502, 'Bad Gateway')).toBe('Bad Gateway');
  });
});

describe('tencent tools', () => {
  const tool = {
    type: 'function',
    function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
  };
  const bodyOf = (body: Record<string, unknown>) =>
    JSON.parse(adapter.buildRequest(request({ body: body as AdapterRequest['body'] })).body as string);

  it('sends Tools, ToolChoice/CustomTool, assistant ToolCalls and tool ToolCallId', () => {
    const sent = bodyOf({
      tools: [tool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    const hunyuanTool = {
      Type: 'function',
      Function: {
        Name: 'get_weather',
        Description: 'Weather',
        Parameters: '{"type":"object","properties":{}}',
      },
    };
    expect(sent.Tools).toEqual([hunyuanTool]);
    expect(sent.ToolChoice).toBe('custom');
    expect(sent.CustomTool).toEqual(hunyuanTool);
    expect(sent.Messages).toEqual([
      { Role: 'user', Content: 'Weather?' },
      {
        Role: 'assistant',
        Content: '',
        ToolCalls: [{ Id: 'call_1', Type: 'function', Function: { Name: 'get_weather', Arguments: '{}' } }],
      },
      { Role: 'tool', Content: 'sunny', ToolCallId: 'call_1' },
    ]);
    expect(bodyOf({ tools: [tool], tool_choice: 'auto', messages: [] }).ToolChoice).toBe('auto');
    const none = bodyOf({ tools: [tool], tool_choice: 'none', messages: [] });
    expect(none.Tools).toBeUndefined();
  });

  it('converts ToolCalls in an answer and merges streamed fragments by Id', () => {
    const answer = adapter.convertResponse!(
      {
        Response: {
          Id: 'h-1',
          Created: 9,
          Choices: [
            {
              Message: {
                Role: 'assistant',
                Content: '',
                ToolCalls: [
                  {
                    Id: 'call_a',
                    Type: 'function',
                    Function: { Name: 'get_weather', Arguments: '{"city":"Paris"}' },
                  },
                ],
              },
              FinishReason: 'tool_calls',
            },
          ],
          Usage: { PromptTokens: 3, CompletionTokens: 2 },
        },
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
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ]);
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const event = (ToolCalls: unknown[], FinishReason = '') => ({
      data: JSON.stringify({
        Id: 'h-1',
        Created: 9,
        Choices: [{ Delta: { Role: 'assistant', Content: '', ToolCalls }, FinishReason }],
      }),
    });
    const out = [
      ...converter.push(
        event([{ Id: 'call_a', Type: 'function', Function: { Name: 'get_weather', Arguments: '{"city":' } }]),
      ),
      ...converter.push(
        event([{ Id: 'call_a', Type: 'function', Function: { Name: 'get_weather', Arguments: '"Paris"}' } }]),
      ),
      ...converter.push(event([], 'tool_calls')),
    ];
    expect(data(out).map((chunk) => chunk.choices[0]?.delta)).toEqual([
      {
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":' },
          },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
    ]);
    expect(data(out)[2].choices[0].finish_reason).toBe('tool_calls');
  });
});

describe('tencent stream', () => {
  it('converts deltas and ends with finish and usage chunks', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const events = [
      {
        Note: 'n',
        Choices: [{ Delta: { Role: 'assistant', Content: '你' }, FinishReason: '' }],
        Created: 1715000001,
        Id: 'hy-2',
        Usage: { PromptTokens: 3, CompletionTokens: 1, TotalTokens: 4 },
      },
      {
        Note: 'n',
        Choices: [{ Delta: { Role: 'assistant', Content: '好' }, FinishReason: '' }],
        Created: 1715000002,
        Id: 'hy-2',
        Usage: { PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5 },
      },
      {
        Note: 'n',
        Choices: [{ Delta: { Role: 'assistant', Content: '' }, FinishReason: 'sensitive' }],
        Created: 1715000002,
        Id: 'hy-2',
        Usage: { PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5 },
      },
    ];
    const out = events.flatMap((e) => converter.push({ data: JSON.stringify(e) }));
    out.push(...converter.end());
    const base = {
      id: 'hy-2',
      object: 'chat.completion.chunk',
      created: 1715000001,
      model: 'hunyuan-standard',
    };
    expect(data(out)).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '你' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '好' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }] },
      { ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ]);
  });

  it('reports an error body as an in-stream error and closes an unfinished stream', () => {
    const failing = adapter.createStreamConverter!(request({ stream: true }));
    expect(
      data(failing.push({ data: '{"Response":{"Error":{"Code":"InternalError","Message":"boom"}}}' })),
    ).toEqual([{ error: { message: 'boom', type: 'upstream_error', code: 'InternalError' } }]);
    const cut = adapter.createStreamConverter!(request({ stream: true }));
    cut.push({ data: JSON.stringify({ Choices: [{ Delta: { Content: 'x' } }], Id: 'hy-3' }) });
    expect(data(cut.end())[0].choices[0].finish_reason).toBe('stop');
  });
});
