/**
 * Hunyuan SSE stream (data = {Id, Created, Choices: [{Delta: {Content, ToolCalls?}, FinishReason}],
 * Usage}) → OpenAI chunks. Tool-call fragments are merged by their Id (Hunyuan's rule): the first
 * fragment of an Id opens an OpenAI tool call (index, id, type, name), later ones add arguments. The
 * event with a FinishReason brings the finish chunk and the usage chunk (Usage is cumulative in every
 * event). An error body or event becomes an in-stream OpenAI error.
 */
import type { JsonObject, SseEvent, StreamConverter } from '../../types';
import { TextDeltaStream } from '../text-stream';
import { arr, asObj, num, str } from '../util';
import { tencentAnswerError } from './errors';
import { hunyuanFinishReason, hunyuanUsage } from './response';

export function createHunyuanStreamConverter(
  model: string,
  created: number,
): StreamConverter<SseEvent, SseEvent> {
  const indexes = new Map<string, number>();
  const toolDeltas = (calls: unknown): JsonObject[] =>
    arr(calls).map((raw): JsonObject => {
      const call = asObj(raw);
      const fn = asObj(call.Function);
      const key = str(call.Id) ?? `#${num(call.Index) ?? 0}`;
      const known = indexes.get(key);
      if (known !== undefined) return { index: known, function: { arguments: str(fn.Arguments) ?? '' } };
      const index = indexes.size;
      indexes.set(key, index);
      return {
        index,
        id: str(call.Id) ?? `call_${index}`,
        type: 'function',
        function: { name: str(fn.Name) ?? '', arguments: str(fn.Arguments) ?? '' },
      };
    });
  return new TextDeltaStream({ id: 'chatcmpl-hunyuan', created, model }, (body) => {
    const error = tencentAnswerError(body);
    if (error) return { error, text: '' };
    const event = asObj(body);
    const choice = asObj(arr(event.Choices)[0]);
    const delta = asObj(choice.Delta);
    const reason = str(choice.FinishReason) ?? '';
    return {
      id: str(event.Id),
      created: num(event.Created),
      text: str(delta.Content) ?? '',
      toolCalls: toolDeltas(delta.ToolCalls),
      finish: reason !== '' ? hunyuanFinishReason(reason) : undefined,
      usage: reason !== '' && event.Usage !== undefined ? hunyuanUsage(event.Usage) : undefined,
    };
  });
}
