/**
 * Hunyuan SSE stream (data = {Id, Created, Choices: [{Delta: {Content}, FinishReason}], Usage}) →
 * OpenAI chunks. The event with a FinishReason brings the finish chunk and the usage chunk (Usage is
 * cumulative in every event). An error body or event becomes an in-stream OpenAI error.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { arr, asObj, chatChunk, errorChunk, num, parseJson, str, usageChunk, type ChunkMeta } from '../util';
import { tencentAnswerError } from './errors';
import { hunyuanFinishReason, hunyuanUsage } from './response';

class HunyuanStream implements StreamConverter<SseEvent, SseEvent> {
  private meta: ChunkMeta;
  private started = false;
  private finished = false;

  constructor(model: string, created: number) {
    this.meta = { id: 'chatcmpl-hunyuan', created, model };
  }

  push(input: SseEvent): SseEvent[] {
    if (this.finished) return [];
    const body = parseJson(input.data);
    const error = tencentAnswerError(body);
    if (error) {
      this.finished = true;
      return [errorChunk(error.text, error.code ?? undefined)];
    }
    const event = asObj(body);
    if (!this.started) {
      this.meta = {
        ...this.meta,
        id: str(event.Id) ?? this.meta.id,
        created: num(event.Created) ?? this.meta.created,
      };
    }
    const choice = asObj(arr(event.Choices)[0]);
    const out: SseEvent[] = [];
    const text = str(asObj(choice.Delta).Content) ?? '';
    if (text !== '') {
      out.push(chatChunk(this.meta, this.started ? { content: text } : { role: 'assistant', content: text }));
      this.started = true;
    }
    const reason = str(choice.FinishReason) ?? '';
    if (reason !== '') {
      this.finished = true;
      out.push(chatChunk(this.meta, {}, hunyuanFinishReason(reason)));
      if (event.Usage !== undefined) {
        const usage = hunyuanUsage(event.Usage);
        out.push(usageChunk(this.meta, usage.prompt, usage.completion));
      }
    }
    return out;
  }

  end(): SseEvent[] {
    if (!this.started || this.finished) return [];
    this.finished = true;
    return [chatChunk(this.meta, {}, 'stop')];
  }
}

export function createHunyuanStreamConverter(
  model: string,
  created: number,
): StreamConverter<SseEvent, SseEvent> {
  return new HunyuanStream(model, created);
}
