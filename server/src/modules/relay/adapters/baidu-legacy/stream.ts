/**
 * Baidu legacy chat stream (SSE, data = {id, created, result, is_end, finish_reason, function_call?,
 * usage}) → OpenAI chunks. A function_call (on any event, in practice the last) becomes one tool-call
 * delta; the last event (is_end) brings the finish chunk and the usage chunk (usage is cumulative in
 * every event). An {error_code, error_msg} event becomes an in-stream OpenAI error.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { TextDeltaStream } from '../text-stream';
import { asObj, num, str } from '../util';
import { baiduAnswerError } from './errors';
import { baiduToolCall, baiduUsage, finishReason } from './response';

export function createBaiduStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  let answerId = 'chatcmpl-baidu';
  let called = false;
  return new TextDeltaStream({ id: answerId, created: 0, model }, (body) => {
    const error = baiduAnswerError(body);
    if (error) return { error, text: '' };
    const event = asObj(body);
    answerId = str(event.id) ?? answerId;
    const call = called ? null : baiduToolCall(event.function_call, answerId);
    if (call) called = true;
    return {
      id: str(event.id),
      created: num(event.created),
      text: str(event.result) ?? '',
      toolCalls: call ? [{ index: 0, ...call }] : undefined,
      finish: event.is_end === true ? finishReason(event.finish_reason) : undefined,
      usage: event.is_end === true && event.usage !== undefined ? baiduUsage(event.usage) : undefined,
    };
  });
}
