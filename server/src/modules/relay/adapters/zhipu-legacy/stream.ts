/**
 * Zhipu v3 sse-invoke → OpenAI chat chunks. The stream is SSE with a non-standard `meta:` field
 * (usage) in its final `finish` event, which standard SSE parsers drop; the adapter therefore asks
 * for line framing ('ndjson': one {data: line} per line) and reads the SSE fields itself:
 *
 *   event:add            data lines are text deltas; several data lines in one event are joined
 *   id:<task id>         by "\n" as SSE specifies; the id becomes the chunks' id
 *   data:Hello
 *
 *   event:finish         meta: {"task_status":"SUCCESS","usage":{…}} → finish chunk + usage chunk
 *   data:
 *   meta:{…}
 *
 * `error` events become an in-stream OpenAI error; `interrupted` (content filter) ends the stream
 * with finish_reason "content_filter". A whole-body JSON error line is reported the same way.
 */
import type { SseEvent, StreamConverter } from '../../types';
import {
  asObj,
  chatChunk,
  errorChunk,
  isObj,
  num,
  parseJson,
  str,
  usageChunk,
  type ChunkMeta,
} from '../util';
import { sanitizeUpstreamText } from '../../errors';
import { zhipuUsage } from './response';

class ZhipuStream implements StreamConverter<SseEvent, SseEvent> {
  private event = '';
  private dataLines = 0;
  private started = false;
  private finished = false;
  private meta: ChunkMeta;

  constructor(meta: ChunkMeta) {
    this.meta = { ...meta };
  }

  push(input: SseEvent): SseEvent[] {
    const line = input.data.replace(/\r$/, '');
    if (line === '') {
      this.event = '';
      this.dataLines = 0;
      return [];
    }
    if (line.startsWith('{')) return this.jsonLine(line);
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    switch (field) {
      case 'event':
        this.event = value;
        this.dataLines = 0;
        return [];
      case 'id':
        if (value !== '') this.meta = { ...this.meta, id: value };
        return [];
      case 'data':
        return this.data(value);
      case 'meta':
        return this.finish('stop', parseJson(value));
      default:
        return [];
    }
  }

  end(): SseEvent[] {
    return this.started && !this.finished ? this.finish('stop', undefined) : [];
  }

  private data(value: string): SseEvent[] {
    const text = this.dataLines > 0 ? `\n${value}` : value;
    this.dataLines++;
    if (this.event === 'error') {
      this.finished = true;
      return [errorChunk(sanitizeUpstreamText(value || 'Zhipu stream error'))];
    }
    if (this.event === 'interrupted') return this.finish('content_filter', undefined);
    if (text === '' || this.finished) return [];
    const delta = this.started ? { content: text } : { role: 'assistant', content: text };
    this.started = true;
    return [chatChunk(this.meta, delta)];
  }

  private finish(reason: string, metaField: unknown): SseEvent[] {
    if (this.finished) return [];
    this.finished = true;
    const out = [chatChunk(this.meta, {}, reason)];
    if (isObj(metaField) && isObj(metaField.usage)) {
      const usage = zhipuUsage(metaField.usage);
      out.push(usageChunk(this.meta, usage.prompt, usage.completion));
    }
    return out;
  }

  private jsonLine(line: string): SseEvent[] {
    const body = asObj(parseJson(line));
    const code = num(body.code);
    if (code === undefined || code === 200) return [];
    this.finished = true;
    return [errorChunk(sanitizeUpstreamText(str(body.msg) ?? `Zhipu error ${code}`), String(code))];
  }
}

export function createZhipuStreamConverter(meta: ChunkMeta): StreamConverter<SseEvent, SseEvent> {
  return new ZhipuStream(meta);
}
