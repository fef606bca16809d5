/** Spark: the documented authentication example, versions, request frames and answer frames. */
import { RelayError } from '../../errors';
import {
  parseSparkKey,
  sparkAuthUrl,
  sparkDomain,
  sparkFrameIsLast,
  sparkFrameToChunks,
  sparkRequestFrame,
  sparkVersion,
} from './index';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('sparkAuthUrl', () => {
  // The example of iFlytek's "general URL authentication" document.
  const apiSecret = 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi';
  const apiKey = 'addd2272b6d8b7c8abdd79531420ca3b';
  const nowMs = Date.parse('Fri, 05 May 2023 10:43:39 GMT');

  it('reproduces the documented signature and authorization', () => {
    const url = new URL(sparkAuthUrl('', apiKey, apiSecret, 'v1.1', nowMs));
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://spark-api.xf-yun.com/v1.1/chat');
    expect(url.searchParams.get('date')).toBe('Fri, 05 May 2023 10:43:39 GMT');
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    const authorization = url.searchParams.get('authorization')!;
    expect(authorization).toBe(
      'YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i',
    );
    expect(Buffer.from(authorization, 'base64').toString()).toBe(
      'api_key="addd2272b6d8b7c8abdd79531420ca3b", algorithm="hmac-sha256", headers="host date request-line", signature="z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ="',
    );
  });

  it("uses the channel's websocket or http(s) base URL and the version's path", () => {
    expect(sparkAuthUrl('https://spark.example.com/', apiKey, apiSecret, 'v3.5', nowMs)).toMatch(
      /^wss:\/\/spark\.example\.com\/v3\.5\/chat\?authorization=[^&]+&date=Fri%2C\+05\+May\+2023\+10%3A43%3A39\+GMT&host=spark\.example\.com$/,
    );
    expect(sparkAuthUrl('(websocket)', apiKey, apiSecret, 'v4.0', nowMs)).toMatch(
      /^wss:\/\/spark-api\.xf-yun\.com\/v4\.0\/chat\?/,
    );
  });
});

describe('spark key and versions', () => {
  it('parses APPID|APISecret|APIKey', () => {
    expect(parseSparkKey('app|sec|key')).toEqual({ appId: 'app', apiSecret: 'sec', apiKey: 'key' });
    expect(() => parseSparkKey('app|sec')).toThrow('"APPID|APISecret|APIKey"');
  });

  it('maps versions to domains, v2.1 by default', () => {
    expect(sparkVersion('')).toBe('v2.1');
    expect(sparkVersion(' v3.5 ')).toBe('v3.5');
    expect(['v1.1', 'v2.1', 'v3.1', 'v3.5', 'v4.0'].map(sparkDomain)).toEqual([
      'general',
      'generalv2',
      'generalv3',
      'generalv3.5',
      '4.0Ultra',
    ]);
    expect(() => sparkDomain('v9')).toThrow(/Unknown Spark version "v9"/);
  });
});

describe('sparkRequestFrame', () => {
  it('builds header, parameter and payload from an OpenAI body', () => {
    const frame = sparkRequestFrame(
      {
        model: 'SparkDesk',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'tool', content: '42' },
        ],
        temperature: 1.5,
        max_tokens: 256,
        user: 'a-very-long-user-identifier-that-exceeds-32-chars',
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
          },
        ],
      },
      'app-1',
      'generalv3.5',
    );
    expect(frame).toEqual({
      header: { app_id: 'app-1', uid: 'a-very-long-user-identifier-that' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 1, max_tokens: 256 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
            { role: 'user', content: '42' },
          ],
        },
        functions: { text: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }] },
      },
    });
  });
});

describe('sparkFrameToChunks', () => {
  const context = { id: 'chatcmpl-1', created: 1700000000, model: 'SparkDesk-v3.5' };
  const base = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'SparkDesk-v3.5',
  };

  it('converts content frames and the last frame with usage', () => {
    const first = {
      header: { code: 0, message: 'Success', sid: 'cht000cb087@dx18793cd421fb894542', status: 0 },
      payload: { choices: { status: 0, seq: 0, text: [{ content: '你好', role: 'assistant', index: 0 }] } },
    };
    const last = {
      header: { code: 0, message: 'Success', sid: 'cht000cb087@dx18793cd421fb894542', status: 2 },
      payload: {
        choices: { status: 2, seq: 1, text: [{ content: '！', role: 'assistant', index: 0 }] },
        usage: { text: { question_tokens: 4, prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } },
      },
    };
    expect(sparkFrameToChunks(first, context)).toEqual([
      {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '你好' }, finish_reason: null }],
      },
    ]);
    expect(sparkFrameIsLast(first)).toBe(false);
    expect(sparkFrameToChunks(last, context)).toEqual([
      { ...base, choices: [{ index: 0, delta: { content: '！' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } },
    ]);
    expect(sparkFrameIsLast(last)).toBe(true);
  });

  it('defaults the id to the sid and turns a function call into tool_calls', () => {
    const frame = {
      header: { code: 0, sid: 'sid-9', status: 2 },
      payload: {
        choices: {
          seq: 0,
          text: [{ content: '', function_call: { name: 'get_weather', arguments: '{"city":"Hefei"}' } }],
        },
      },
    };
    const chunks = sparkFrameToChunks(frame);
    expect(chunks).toEqual([
      {
        id: 'sid-9',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'spark',
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: 'call_sid-9',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Hefei"}' },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      },
      {
        id: 'sid-9',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'spark',
        choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
      },
    ]);
  });

  it('throws a RelayError for an error frame', () => {
    const frame = {
      header: { code: 11200, message: 'AppIdNoAuthError:(11200)auth no license', sid: 's', status: 2 },
    };
    expect(sparkFrameIsLast(frame)).toBe(true);
    const error = thrown(() => sparkFrameToChunks(frame));
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).status).toBe(403);
    expect((error as RelayError).text).toBe('AppIdNoAuthError:(11200)auth no license');
    expect(
      (thrown(() => sparkFrameToChunks({ header: { code: 10013, message: 'audit' } })) as RelayError).status,
    ).toBe(400);
  });
});
