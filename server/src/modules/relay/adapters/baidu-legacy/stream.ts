/**
 * Baidu legacy chat stream (SSE, data = {id, created, result, is_end, finish_reason, usage}) → OpenAI
 * chunks. The last event (is_end) brings the finish chunk and the usage chunk (usage is cumulative in
 * every event). An {error_code, error_msg} event becomes an in-stream OpenAI error.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { asObj, chatChunk, errorChunk, num, parseJson, str, usageChunk, type ChunkMeta } from '../util';
import { baiduAnswerError } from './errors';
import { baiduUsage, finishReason } from './response';

class BaiduStream implements StreamConverter<SseEvent, SseEvent> {
  private meta: ChunkMeta;
  private started = false;
  private finished = false;

  constructor(model: string) {
    this.meta = { id: 'chatcmpl-baidu', created: 0, model };
  }

  push(input: SseEvent): SseEvent[] {
    if (this.finished) return [];
    const body = parseJson(input.data);
    const error = baiduAnswerError(body);
    if (error) {
      this.finished = true;
      return [errorChunk(error.text, error.code ?? undefined)];
    }
    const event = asObj(body);
    if (!this.started) {
      this.meta = {
        ...this.meta,
        id: str(event.id) ?? this.meta.id,
        created: num(event.created) ?? this.meta.created,
      };
    }
    const out: SseEvent[] = [];
    const text = str(event.result) ?? '';
    if (text !== '') {
      out.push(chatChunk(this.meta, this.started ? { content: text } : { role: 'assistant', content: text }));
      this.started = true;
    }
    if (event.is_end === true) {
      this.finished = true;
      out.push(chatChunk(this.meta, {}, finishReason(event.finish_reason)));
      if (event.usage !== undefined) {
        const usage = baiduUsage(event.usage);
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

export function createBaiduStreamConverter(model: string): StreamConverter<SseEvent, SseEvent> {
  return new BaiduStream(model);
}
