/**
 * Baidu legacy chat stream (SSE, data = {id, created, result, is_end, finish_reason, usage}) → OpenAI
 * chunks. The last event (is_end) brings the finish chunk and the usage chunk (usage is cumulative in
 * every event). An {error_code, error_msg} event becomes an in-stream OpenAI error.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { TextDeltaStream } from '../text-stream';
import { asObj, num, str } from '../util';
import { baiduAnswerError } from './errors';
import { baiduUsage, finishReason } from './response';

export function createBaiduStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  return new TextDeltaStream({ id: 'chatcmpl-baidu', created: 0, model }, (body) => {
    const error = baiduAnswerError(body);
    if (error) return { error, text: '' };
    const event = asObj(body);
    return {
      id: str(event.id),
      created: num(event.created),
      text: str(event.result) ?? '',
      finish: event.is_end === true ? finishReason(event.finish_reason) : undefined,
      usage: event.is_end === true && event.usage !== undefined ? baiduUsage(event.usage) : undefined,
    };
  });
}
