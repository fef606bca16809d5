/** Zhipu v3: JWT (verified with node:crypto), request, answer and line-framed stream conversion. */
import { createHmac } from 'node:crypto';
import { RelayError } from '../../errors';
import type { AdapterRequest, SseEvent } from '../../types';
import { neutralSettings } from '../testing';
import { createZhipuLegacyAdapter, parseZhipuKey, zhipuToken } from './index';

const NOW = 1_717_000_000_123;
const adapter = createZhipuLegacyAdapter(() => NOW);

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    mode: 'chat',
    model: 'chatglm_turbo',
    stream: false,
    body: {
      model: 'chatglm_turbo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Bye' },
      ],
      temperature: 0.5,
      top_p: 0.7,
    },
    channel: {
      id: 1,
      type: 16,
      baseUrl: 'https://open.bigmodel.cn',
      key: 'myid.mysecret',
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

const lines = (text: string): SseEvent[] => text.split('\n').map((line) => ({ data: line }));

describe('zhipu JWT', () => {
  it('signs {api_key, exp, timestamp} (ms) with HS256 and sign_type SIGN', () => {
    const token = zhipuToken('myid.mysecret', NOW, 60_000);
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'HS256',
      sign_type: 'SIGN',
    });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual({
      api_key: 'myid',
      exp: NOW + 60_000,
      timestamp: NOW,
    });
    const expected = createHmac('sha256', 'mysecret').update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
  });

  it('refuses keys that are not id.secret', () => {
    expect(() => parseZhipuKey('nodot')).toThrow('"id.secret"');
    expect(() => parseZhipuKey('.secret')).toThrow();
    expect(parseZhipuKey('a.b.c')).toEqual({ id: 'a', secret: 'b.c' });
  });
});

describe('zhipu buildRequest', () => {
  it('posts the v3 body to /invoke with the JWT', () => {
    const call = adapter.buildRequest(request());
    expect(call.url).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(call.headers.Authorization).toBe(zhipuToken('myid.mysecret', NOW));
    expect(JSON.parse(call.body as string)).toEqual({
      prompt: [
        { role: 'user', content: 'Be brief.' },
        { role: 'assistant', content: 'Okay' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Bye' },
      ],
      temperature: 0.5,
      top_p: 0.7,
      incremental: true,
    });
  });

  it('streams from /sse-invoke with line framing', () => {
    const call = adapter.buildRequest(request({ stream: true }));
    expect(call.url.endsWith('/chatglm_turbo/sse-invoke')).toBe(true);
    expect(call.headers.Accept).toBe('text/event-stream');
    expect(adapter.framing).toBe('ndjson');
  });
});

describe('zhipu convertResponse', () => {
  it('unquotes the content and maps usage', () => {
    const answer = {
      code: 200,
      msg: '操作成功',
      success: true,
      data: {
        task_id: '75931252186628',
        task_status: 'SUCCESS',
        choices: [{ role: 'assistant', content: '" Hello\\nworld \\"quoted\\""' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    };
    expect(adapter.convertResponse!(answer, request())).toEqual({
      id: '75931252186628',
      object: 'chat.completion',
      created: Math.floor(NOW / 1000),
      model: 'chatglm_turbo',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: ' Hello\nworld "quoted"' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it('throws a RelayError for an error answer', () => {
    const convert = (code: number) => () =>
      adapter.convertResponse!({ code, msg: 'Authorization Token非法', success: false }, request());
    const error = thrown(convert(1002));
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ status: 401, code: '1002', text: 'Authorization Token非法' });
    expect(thrown(convert(1302))).toMatchObject({ status: 429, retryable: true });
    expect(thrown(convert(1301))).toMatchObject({ status: 400, retryable: false });
  });

  it('reads {code, msg} error bodies', () => {
    expect(
      adapter.errorMessage!(401, '{"code":1001,"msg":"Header中未收到Authorization参数","success":false}'),
    ).toBe('Header中未收到Authorization参数');
  });
});

describe('zhipu stream', () => {
  it('turns add/finish events into chunks, joins multi-line data and ends with usage', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const out = lines(
      [
        'event:add',
        'id:8313807536837492492',
        'data:Hello',
        '',
        'event:add',
        'id:8313807536837492492',
        'data: world',
        'data:second line',
        '',
        'event:finish',
        'id:8313807536837492492',
        'data:',
        'meta:{"task_status":"SUCCESS","usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7},"task_id":"8313807536837492492"}',
        '',
      ].join('\n'),
    ).flatMap((event) => converter.push(event));
    out.push(...converter.end());
    const chunks = data(out);
    const base = {
      id: '8313807536837492492',
      object: 'chat.completion.chunk',
      created: Math.floor(NOW / 1000),
      model: 'chatglm_turbo',
    };
    expect(chunks).toEqual([
      {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }],
      },
      { ...base, choices: [{ index: 0, delta: { content: 'world' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '\nsecond line' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } },
    ]);
  });

  it('works when blank lines are not passed on, and finishes at the end without meta', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    const out = ['event:add', 'data:A', 'event:add', 'data:B'].flatMap((line) =>
      converter.push({ data: line }),
    );
    out.push(...converter.end());
    expect(data(out).map((c) => c.choices[0]?.delta.content ?? c.choices[0]?.finish_reason)).toEqual([
      'A',
      'B',
      'stop',
    ]);
  });

  it('reports error and interrupted events', () => {
    const errors = adapter.createStreamConverter!(request({ stream: true }));
    const failed = ['event:error', 'data:模型服务异常'].flatMap((line) => errors.push({ data: line }));
    expect(data(failed)).toEqual([{ error: { message: '模型服务异常', type: 'upstream_error' } }]);
    expect(errors.end()).toEqual([]);

    const interrupted = adapter.createStreamConverter!(request({ stream: true }));
    const out = ['event:add', 'data:x', 'event:interrupted', 'data:'].flatMap((line) =>
      interrupted.push({ data: line }),
    );
    expect(data(out)[1].choices[0].finish_reason).toBe('content_filter');
  });

  it('reports a JSON error body sent instead of a stream', () => {
    const converter = adapter.createStreamConverter!(request({ stream: true }));
    expect(
      data(
        converter.push({
          data: '{"code":1301,"msg":"系统检测到输入或生成内容可能包含不安全或敏感内容","success":false}',
        }),
      ),
    ).toEqual([
      {
        error: {
          message: '系统检测到输入或生成内容可能包含不安全或敏感内容',
          type: 'upstream_error',
          code: '1301',
        },
      },
    ]);
  });
});
