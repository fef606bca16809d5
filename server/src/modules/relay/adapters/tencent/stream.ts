/**
 * Hunyuan SSE stream (data = {Id, Created, Choices: [{Delta: {Content}, FinishReason}], Usage}) →
 * OpenAI chunks. The event with a FinishReason brings the finish chunk and the usage chunk (Usage is
 * cumulative in every event). An error body or event becomes an in-stream OpenAI error.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { TextDeltaStream } from '../text-stream';
import { arr, asObj, num, str } from '../util';
import { tencentAnswerError } from './errors';
import { hunyuanFinishReason, hunyuanUsage } from './response';

export function createHunyuanStreamConverter(model: string, created: number): StreamConverter<SseEvent, SseEvent> {
  return new TextDeltaStream({ id: 'chatcmpl-hunyuan', created, model }, (body) => {
    const error = tencentAnswerError(body);
    if (error) return { error, text: '' };
    const event = asObj(body);
    const choice = asObj(arr(event.Choices)[0]);
    const reason = str(choice.FinishReason) ?? '';
    return {
      id: str(event.Id),
      created: num(event.Created),
      text: str(asObj(choice.Delta).Content) ?? '',
      finish: reason !== '' ? hunyuanFinishReason(reason) : undefined,
      usage: reason !== '' && event.Usage !== undefined ? hunyuanUsage(event.Usage) : undefined,
    };
  });
}
