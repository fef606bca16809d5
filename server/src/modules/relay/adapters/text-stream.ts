/**
 * The stream shape shared by providers whose events each carry a text delta, optional tool-call
 * deltas, an optional finish reason and cumulative usage (Baidu legacy, Tencent Hunyuan). A provider
 * supplies `read`, which maps one parsed event to a TextFrame; this class turns the frames into OpenAI
 * chunks: the first delta with the assistant role, tool-call deltas, a finish chunk (tool_calls when
 * the answer called a tool), then a usage chunk (choices: []). An error frame becomes an in-stream
 * OpenAI error and ends the stream.
 */
import type { JsonObject, SseEvent, StreamConverter } from '../types';
import { chatChunk, errorChunk, json, parseJson, usageChunk, type ChunkMeta } from './util';

export interface TextFrame {
  error?: { text: string; code?: string | null };
  id?: string;
  created?: number;
  text: string;
  /** OpenAI tool-call deltas ({index, id?, type?, function: {name?, arguments}}) of this event. */
  toolCalls?: JsonObject[];
  /** Set on the event that ends the answer (the OpenAI finish_reason). */
  finish?: string;
  usage?: { prompt: number; completion: number };
}

export class TextDeltaStream implements StreamConverter<SseEvent, SseEvent> {
  private started = false;
  private finished = false;
  private calledTool = false;

  constructor(
    private meta: ChunkMeta,
    private readonly read: (body: unknown) => TextFrame,
  ) {}

  push(input: SseEvent): SseEvent[] {
    if (this.finished) return [];
    const frame = this.read(parseJson(input.data));
    if (frame.error) {
      this.finished = true;
      return [errorChunk(frame.error.text, frame.error.code ?? undefined)];
    }
    if (!this.started)
      this.meta = { ...this.meta, id: frame.id ?? this.meta.id, created: frame.created ?? this.meta.created };
    const out: SseEvent[] = [];
    if (frame.text !== '') out.push(this.delta({ content: frame.text }));
    if (frame.toolCalls && frame.toolCalls.length > 0) {
      this.calledTool = true;
      out.push(this.delta({ tool_calls: json(frame.toolCalls) }));
    }
    if (frame.finish !== undefined) {
      this.finished = true;
      out.push(chatChunk(this.meta, {}, this.calledTool ? 'tool_calls' : frame.finish));
      if (frame.usage) out.push(usageChunk(this.meta, frame.usage.prompt, frame.usage.completion));
    }
    return out;
  }

  end(): SseEvent[] {
    if (!this.started || this.finished) return [];
    this.finished = true;
    return [chatChunk(this.meta, {}, this.calledTool ? 'tool_calls' : 'stop')];
  }

  private delta(delta: JsonObject): SseEvent {
    const chunk = chatChunk(this.meta, this.started ? delta : { role: 'assistant', ...delta });
    this.started = true;
    return chunk;
  }
}
