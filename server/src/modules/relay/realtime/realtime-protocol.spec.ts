import type { Price } from '../../billing/pricing';
import { usageQuota } from '../../billing/pricing';
import {
  closeReason,
  errorEvent,
  handshakeError,
  httpRefusal,
  isRealtimeType,
  parseEvent,
  pickProtocol,
  realtimeDraft,
  realtimeKey,
  realtimeTarget,
  realtimeUsage,
  relayCloseCode,
  wsBase,
} from './realtime-protocol';

const channel = (over: Partial<Parameters<typeof realtimeTarget>[0]> = {}) => ({
  type: 1,
  baseUrl: 'https://api.openai.com',
  other: '',
  organization: '',
  headerOverride: {},
  ...over,
});

const price: Price = {
  modelPrice: -1,
  modelRatio: 2.5,
  completionRatio: 4,
  cacheRatio: 0.5,
  cacheCreationRatio: 1.25,
  imageRatio: 1,
  audioRatio: 8,
  audioCompletionRatio: 2.5,
  groupRatio: 1,
  userGroupRatio: -1,
  quotaPerUnit: 500000,
};

describe('realtime key and subprotocol', () => {
  const q = (s = '') => new URLSearchParams(s);

  it('reads Bearer, x-api-key, the browser subprotocol, then ?key=', () => {
    expect(realtimeKey({ authorization: 'Bearer sk-a' }, q('key=sk-q'))).toBe('sk-a');
    expect(realtimeKey({ 'x-api-key': ' sk-x ' }, q())).toBe('sk-x');
    expect(
      realtimeKey(
        { 'sec-websocket-protocol': 'realtime, openai-insecure-api-key.sk-p, openai-beta.realtime-v1' },
        q('key=sk-q'),
      ),
    ).toBe('sk-p');
    expect(realtimeKey({}, q('key=sk-q'))).toBe('sk-q');
    expect(realtimeKey({ 'sec-websocket-protocol': 'openai-insecure-api-key.' }, q())).toBeNull();
  });

  it('answers `realtime` when offered and never echoes the key protocol', () => {
    expect(pickProtocol(['openai-insecure-api-key.sk-p', 'realtime'])).toBe('realtime');
    expect(pickProtocol(['openai-insecure-api-key.sk-p', 'openai-beta.realtime-v1'])).toBe(
      'openai-beta.realtime-v1',
    );
    expect(pickProtocol(['openai-insecure-api-key.sk-p'])).toBe(false);
    expect(pickProtocol(new Set<string>())).toBe(false);
  });
});

describe('realtime upstream target', () => {
  it('turns http(s) into ws(s)', () => {
    expect(wsBase('https://api.openai.com/')).toBe('wss://api.openai.com');
    expect(wsBase('http://127.0.0.1:9')).toBe('ws://127.0.0.1:9');
    expect(wsBase('wss://x.example')).toBe('wss://x.example');
  });

  it('serves OpenAI and compatible types at <base>/v1/realtime with a bearer and the beta header', () => {
    expect(realtimeTarget(channel(), 'gpt-4o-realtime-preview', 'sk-up')).toEqual({
      url: 'wss://api.openai.com/v1/realtime?model=gpt-4o-realtime-preview',
      headers: { Authorization: 'Bearer sk-up', 'OpenAI-Beta': 'realtime=v1' },
    });
    expect(realtimeTarget(channel({ type: 8, baseUrl: 'http://proxy.local/v1' }), 'm', 'k')!.url).toBe(
      'ws://proxy.local/v1/realtime?model=m',
    );
    expect(realtimeTarget(channel({ organization: 'org-1' }), 'm', 'k')!.headers['OpenAI-Organization']).toBe(
      'org-1',
    );
  });

  it('serves Azure at /openai/realtime with api-key, api-version from `other` or the default', () => {
    expect(
      realtimeTarget(channel({ type: 3, baseUrl: 'https://res.openai.azure.com' }), 'my-deploy', 'az'),
    ).toEqual({
      url: 'wss://res.openai.azure.com/openai/realtime?api-version=2024-10-01-preview&deployment=my-deploy',
      headers: { 'api-key': 'az' },
    });
    expect(realtimeTarget(channel({ type: 3, other: '2025-04-01-preview' }), 'd', 'az')!.url).toContain(
      'api-version=2025-04-01-preview&deployment=d',
    );
  });

  it('applies header_override and refuses types without a realtime API', () => {
    const t = realtimeTarget(channel({ headerOverride: { 'X-Key': 'k={api_key}' } }), 'm', 'sk-up');
    expect(t!.headers['X-Key']).toBe('k=sk-up');
    expect(realtimeTarget(channel({ type: 14 }), 'm', 'k')).toBeNull();
    expect(isRealtimeType(24)).toBe(false);
    expect(isRealtimeType(3)).toBe(true);
    expect(isRealtimeType(1)).toBe(true);
  });
});

describe('realtime usage and billing', () => {
  const usage = {
    input_tokens: 100,
    output_tokens: 50,
    input_token_details: { text_tokens: 40, audio_tokens: 60, cached_tokens: 20 },
    output_token_details: { text_tokens: 10, audio_tokens: 40 },
  };

  it('splits text and audio and prices them with the audio ratios', () => {
    const u = realtimeUsage(usage)!;
    expect(u).toMatchObject({ textInput: 40, audioInput: 60, textOutput: 10, audioOutput: 40 });
    expect(u.counts).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 50,
      cached_tokens: 20,
      audio_prompt_tokens: 60,
      audio_completion_tokens: 40,
    });
    // (20 plain + 20 cached × 0.5 + 60 audio × 8 + 10 × 4 + 40 × 8 × 2.5) × 2.5
    expect(usageQuota(price, u.counts)).toBe(3375);
  });

  it('bills cached audio as cached, not twice', () => {
    const u = realtimeUsage({
      ...usage,
      input_token_details: {
        text_tokens: 40,
        audio_tokens: 60,
        cached_tokens: 30,
        cached_tokens_details: { text_tokens: 20, audio_tokens: 10 },
      },
    })!;
    expect(u.counts).toMatchObject({ cached_tokens: 30, audio_prompt_tokens: 50 });
    expect(u.audioInput).toBe(60);
    // plain = 100 − 30 − 50 = 20 (text 40 − cached text 20)
    expect(usageQuota(price, u.counts)).toBe(
      Math.round((20 + 30 * 0.5 + 50 * 8 + 10 * 4 + 40 * 8 * 2.5) * 2.5),
    );
  });

  it('treats missing details as text and missing usage as nothing to bill', () => {
    expect(realtimeUsage({ input_tokens: 7, output_tokens: 3 })).toMatchObject({
      textInput: 7,
      audioInput: 0,
      textOutput: 3,
      audioOutput: 0,
    });
    expect(realtimeUsage(null)).toBeNull();
    expect(realtimeUsage({})).toBeNull();
  });

  it('parses only events of the asked type', () => {
    expect(parseEvent(Buffer.from('{"type":"response.done","response":{}}'), 'response.done')).toEqual({
      type: 'response.done',
      response: {},
    });
    expect(
      parseEvent(Buffer.from('{"type":"response.text.delta","delta":"response.done"}'), 'response.done'),
    ).toBeNull();
    expect(parseEvent(Buffer.from('not json'), 'response.done')).toBeNull();
  });

  it('writes a consume log with ws, the text/audio split and the ratios', () => {
    const u = realtimeUsage(usage)!;
    const draft = realtimeDraft({
      ctx: {
        user: { id: 7, username: 'ann' } as never,
        token: { id: 3 } as never,
        tokenName: 'tok',
        group: 'default',
        model: 'gpt-4o-realtime-preview',
        req: { ip: '10.0.0.1', requestId: 'rid' } as never,
        price,
      },
      channelId: 5,
      upstreamModel: 'gpt-4o-realtime-preview-2024-12-17',
      tried: [5],
      quota: 3375,
      usage: u,
      responseId: 'resp_1',
      startedAt: 1_700_000_000_000,
      now: 1_700_000_002_400,
    });
    expect(draft).toMatchObject({
      user_id: 7,
      type: 2,
      quota: 3375,
      prompt_tokens: 100,
      completion_tokens: 50,
      created_at: 1_700_000_000,
      use_time: 2,
      is_stream: true,
      channel_id: 5,
      token_id: 3,
      request_id: 'rid',
    });
    expect(JSON.parse(draft.other!)).toMatchObject({
      ws: true,
      audio: true,
      audio_input: 60,
      audio_output: 40,
      text_input: 40,
      text_output: 10,
      response_id: 'resp_1',
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o-realtime-preview-2024-12-17',
      model_ratio: 2.5,
      audio_ratio: 8,
      audio_completion_ratio: 2.5,
      cache_tokens: 20,
    });
  });
});

describe('realtime errors and closes', () => {
  it('maps close codes that cannot be sent', () => {
    expect(relayCloseCode(1000, 1011)).toBe(1000);
    expect(relayCloseCode(4001, 1011)).toBe(4001);
    expect(relayCloseCode(1005, 1011)).toBe(1000);
    expect(relayCloseCode(1006, 1011)).toBe(1011);
    expect(relayCloseCode(1015, 1011)).toBe(1000);
    expect(relayCloseCode(2000, 1011)).toBe(1000);
  });

  it('cuts close reasons to 123 bytes on a character boundary', () => {
    expect(Buffer.byteLength(closeReason('é'.repeat(100)))).toBeLessThanOrEqual(123);
    expect(closeReason('é'.repeat(100))).toBe('é'.repeat(61));
    expect(closeReason(Buffer.from('bye'))).toBe('bye');
  });

  it('maps handshake statuses and marks the retryable ones', () => {
    const ch = { statusCodeMapping: { '429': 503 } };
    const e = handshakeError(ch, 429, '{"error":{"message":"slow down"}}');
    expect(e).toMatchObject({ status: 503, retryable: true, text: 'slow down', code: 'upstream_error' });
    expect(handshakeError(ch, 400, 'bad').retryable).toBe(false);
    expect(handshakeError(ch, 504, '').retryable).toBe(false);
    expect(handshakeError(ch, 500, '').messageIn('en')).toBe('upstream answered HTTP 500');
  });

  it('writes a raw HTTP refusal with the OpenAI error body', () => {
    const raw = httpRefusal(401, 'Invalid API key', 'invalid_api_key', 'rid1');
    const [head, body] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(head).toContain('X-Oneapi-Request-Id: rid1');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({
      error: {
        message: 'Invalid API key',
        type: 'authentication_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  });

  it('builds the error event sent before the gateway closes a session', () => {
    expect(
      JSON.parse(errorEvent('Insufficient user quota', 'insufficient_quota', 'permission_error')),
    ).toMatchObject({
      type: 'error',
      error: { type: 'permission_error', code: 'insufficient_quota', message: 'Insufficient user quota' },
    });
  });
});
