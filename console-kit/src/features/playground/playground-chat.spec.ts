import { describe, expect, it } from 'vitest';
import {
  buildChatRequest,
  ChatStreamError,
  chatReducer,
  deltaText,
  initialChatState,
  parseMaxTokens,
  readChatStream,
  type ChatState,
  type PlaygroundSettings,
} from './playground-chat';

const settings: PlaygroundSettings = {
  model: 'gpt-4o-mini',
  group: 'default',
  temperature: 0,
  maxTokens: 0,
  systemPrompt: 'You are a helpful assistant.',
};

describe('chatReducer', () => {
  const sent = chatReducer(initialChatState, { type: 'send', text: 'hi' });
  const replyId = sent.pendingId ?? -1;

  it('adds the question and a loading answer', () => {
    expect(sent.messages).toEqual([
      { id: 1, role: 'user', content: 'hi', status: 'complete' },
      { id: 2, role: 'assistant', content: '', status: 'loading' },
    ]);
    expect(replyId).toBe(2);
  });

  it('goes loading → incomplete while text arrives → complete on [DONE]', () => {
    let state = chatReducer(sent, { type: 'delta', id: replyId, text: 'Hel' });
    expect(state.messages[1]).toMatchObject({ content: 'Hel', status: 'incomplete' });
    state = chatReducer(state, { type: 'delta', id: replyId, text: 'lo' });
    state = chatReducer(state, { type: 'done', id: replyId });
    expect(state.messages[1]).toMatchObject({ content: 'Hello', status: 'complete' });
    expect(state.pendingId).toBeNull();
  });

  it('keeps the partial text of a failed answer and records why', () => {
    let state = chatReducer(sent, { type: 'delta', id: replyId, text: 'Hal' });
    state = chatReducer(state, { type: 'fail', id: replyId, error: 'cut off' });
    expect(state.messages[1]).toMatchObject({ content: 'Hal', status: 'error', error: 'cut off' });
    expect(state.pendingId).toBeNull();
  });

  it('ignores late or foreign events and a second question while one is pending', () => {
    expect(chatReducer(sent, { type: 'send', text: 'again' })).toBe(sent);
    expect(chatReducer(sent, { type: 'send', text: '   ' }).messages).toHaveLength(2);
    expect(chatReducer(initialChatState, { type: 'send', text: '  ' })).toBe(initialChatState);
    const done = chatReducer(sent, { type: 'done', id: replyId });
    expect(chatReducer(done, { type: 'delta', id: replyId, text: 'late' })).toBe(done);
    expect(chatReducer(done, { type: 'fail', id: replyId, error: 'late' })).toBe(done);
    expect(chatReducer(sent, { type: 'delta', id: 99, text: 'x' })).toBe(sent);
  });

  it('clears the context without reusing ids', () => {
    const cleared = chatReducer(sent, { type: 'clear' });
    expect(cleared.messages).toEqual([]);
    expect(cleared.pendingId).toBeNull();
    const again = chatReducer(cleared, { type: 'send', text: 'new' });
    expect(again.messages[0].id).toBeGreaterThan(2);
  });
});

describe('buildChatRequest', () => {
  it('omits temperature and max_tokens while they are 0 (docs/decisions.md#console-extras)', () => {
    const state = chatReducer(initialChatState, { type: 'send', text: 'hi' });
    expect(buildChatRequest(settings, state.messages)).toEqual({
      model: 'gpt-4o-mini',
      group: 'default',
      stream: true,
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('sends them once set, temperature on the 0.1 grid and at most 1', () => {
    const body = buildChatRequest(
      { ...settings, temperature: 0.7000001, maxTokens: 256, systemPrompt: ' ' },
      [],
    );
    expect(body.temperature).toBe(0.7);
    expect(body.max_tokens).toBe(256);
    expect(body.messages).toEqual([]);
    expect(buildChatRequest({ ...settings, temperature: 3 }, []).temperature).toBe(1);
  });

  it('carries finished turns and leaves out a failed exchange', () => {
    let state: ChatState = chatReducer(initialChatState, { type: 'send', text: 'one' });
    state = chatReducer(state, { type: 'delta', id: 2, text: 'first' });
    state = chatReducer(state, { type: 'done', id: 2 });
    state = chatReducer(state, { type: 'send', text: 'two' });
    state = chatReducer(state, { type: 'fail', id: 4, error: 'boom' });
    state = chatReducer(state, { type: 'send', text: 'three' });
    expect(buildChatRequest({ ...settings, systemPrompt: '' }, state.messages).messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first' },
      { role: 'user', content: 'three' },
    ]);
  });
});

describe('parseMaxTokens', () => {
  it('takes a non-negative integer, else 0', () => {
    expect(parseMaxTokens('256')).toBe(256);
    expect(parseMaxTokens('12.9')).toBe(12);
    expect(parseMaxTokens('-5')).toBe(0);
    expect(parseMaxTokens('abc')).toBe(0);
    expect(parseMaxTokens('')).toBe(0);
    expect(parseMaxTokens('99999999999999')).toBe(2_147_483_647);
  });
});

function streamResponse(parts: string[], init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) {
        controller.enqueue(encoder.encode(part));
      }
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' }, ...init });
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

describe('readChatStream', () => {
  it('hands over each delta, also when an event is split across reads, and stops at [DONE]', async () => {
    const pieces: string[] = [];
    const whole = `data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n${chunk('你好')}${chunk('，世界')}: keep-alive\n\ndata: [DONE]\n\n${chunk('after')}`;
    const parts = [whole.slice(0, 7), whole.slice(7, 60), whole.slice(60, 61), whole.slice(61)];
    await readChatStream(streamResponse(parts), (text) => pieces.push(text));
    expect(pieces.join('')).toBe('你好，世界');
  });

  it('rejects a refusal with the server message and status', async () => {
    const response = new Response(JSON.stringify({ error: { message: '用户额度不足', type: 'x' } }), {
      status: 403,
    });
    await expect(readChatStream(response, () => undefined)).rejects.toMatchObject({
      message: '用户额度不足',
      status: 403,
    });
  });

  it('rejects an error carried in the stream, after the text before it', async () => {
    const pieces: string[] = [];
    const failure = readChatStream(
      streamResponse([chunk('part'), 'data: {"error":{"message":"upstream broke"}}\n\n']),
      (text) => pieces.push(text),
    );
    await expect(failure).rejects.toThrow('upstream broke');
    expect(pieces).toEqual(['part']);
  });

  it('rejects a stream that ends without [DONE]', async () => {
    const failure = readChatStream(streamResponse([chunk('half')]), () => undefined);
    await expect(failure).rejects.toBeInstanceOf(ChatStreamError);
  });
});

describe('deltaText', () => {
  it('reads choices[0].delta.content and nothing else', () => {
    expect(deltaText('{"choices":[{"delta":{"content":"x"}}]}')).toBe('x');
    expect(deltaText('{"choices":[]}')).toBe('');
    expect(deltaText('{"choices":[{"delta":{"content":5}}]}')).toBe('');
    expect(deltaText('not json')).toBe('');
  });
});
