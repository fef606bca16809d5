/**
 * Streams between Anthropic Messages SSE events and OpenAI chat.completion.chunk objects. Both
 * converters keep a few counters only: memory does not grow with the length of the stream.
 */
import type { JsonObject, SseEvent, StreamConverter, UsageCounts } from '../../types';
import {
  anthropicMessageId,
  anthropicToolId,
  openAIMessageId,
  openAIToolId,
  asArray,
  asNumber,
  asObject,
  asString,
  isObject,
  type JsonMap,
  toFinishReason,
  toStopReason,
} from './shared';
import { openAIChunk } from '../json';
import { anthropicUsage, anthropicUsageFromOpenAI, openAIUsageFromCounts } from './usage';

function parseData(data: string): JsonObject | null {
  try {
    const parsed: unknown = JSON.parse(data);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Anthropic SSE events → OpenAI chat.completion.chunk objects (the last one carries usage, choices: []). */
export class AnthropicToOpenAIStream implements StreamConverter<SseEvent, JsonObject> {
  private readonly created: number;
  private id = '';
  private model = '';
  private started = false;
  private finished = false;
  private done = false;
  private tools = 0;
  private stopReason: unknown = null;
  private usage: UsageCounts = anthropicUsage({});
  private input: JsonObject = {};

  constructor(opts: { created?: number } = {}) {
    this.created = opts.created ?? 0;
  }

  push(event: SseEvent): JsonObject[] {
    const data = parseData(event.data);
    const type = asString(data?.type) ?? event.event;
    if (type === 'error') {
      const message = asString(asObject(data?.error).message) ?? asString(data?.message) ?? event.data;
      throw new Error(message || 'upstream stream error');
    }
    if (!data || this.done) return [];
    switch (type) {
      case 'message_start':
        return this.onMessageStart(asObject(data.message));
      case 'content_block_start':
        return this.onBlockStart(asObject(data.content_block));
      case 'content_block_delta':
        return this.onBlockDelta(asObject(data.delta));
      case 'message_delta':
        return this.onMessageDelta(data);
      case 'message_stop':
        return this.close();
      default:
        return [];
    }
  }

  /** What `push` gives for a `content_block_delta` of a text block with this text (`anthropicTextDelta`). */
  pushText(text: string): JsonObject[] {
    return this.done || !text ? [] : [this.chunk({ content: text })];
  }

  end(): JsonObject[] {
    return this.started && !this.done ? this.close() : [];
  }

  private chunk(delta: JsonMap, finishReason: string | null = null): JsonObject {
    return openAIChunk(this.id, this.created, this.model, [{ index: 0, delta, finish_reason: finishReason }]);
  }

  private setUsage(usage: unknown): void {
    // message_delta repeats the whole-message counters it knows: overwrite what is present.
    const u = asObject(usage);
    for (const key of [
      'input_tokens',
      'output_tokens',
      'cache_read_input_tokens',
      'cache_creation_input_tokens',
    ]) {
      if (asNumber(u[key]) !== undefined) this.input[key] = u[key];
    }
    // The split of cache writes by lifetime (five minutes, one hour) is priced apart.
    if (isObject(u.cache_creation)) this.input.cache_creation = u.cache_creation;
    this.usage = anthropicUsage(this.input);
  }

  private onMessageStart(message: JsonObject): JsonObject[] {
    this.started = true;
    this.id = openAIMessageId(asString(message.id) ?? '');
    this.model = asString(message.model) ?? '';
    this.setUsage(message.usage);
    return [this.chunk({ role: 'assistant', content: '' })];
  }

  private onBlockStart(block: JsonObject): JsonObject[] {
    if (block.type === 'text') {
      const text = asString(block.text);
      return text ? [this.chunk({ content: text })] : [];
    }
    if (block.type === 'thinking') {
      const thinking = asString(block.thinking);
      return thinking ? [this.chunk({ reasoning_content: thinking })] : [];
    }
    if (block.type !== 'tool_use') return [];
    const input = asObject(block.input);
    const call = {
      index: this.tools++,
      id: openAIToolId(asString(block.id) ?? ''),
      type: 'function',
      function: {
        name: asString(block.name) ?? '',
        arguments: Object.keys(input).length > 0 ? JSON.stringify(input) : '',
      },
    };
    return [this.chunk({ tool_calls: [call] })];
  }

  private onBlockDelta(delta: JsonObject): JsonObject[] {
    switch (delta.type) {
      case 'text_delta': {
        const text = asString(delta.text);
        return text ? [this.chunk({ content: text })] : [];
      }
      case 'thinking_delta': {
        const thinking = asString(delta.thinking);
        return thinking ? [this.chunk({ reasoning_content: thinking })] : [];
      }
      case 'input_json_delta': {
        const json = asString(delta.partial_json);
        if (!json || this.tools === 0) return [];
        return [this.chunk({ tool_calls: [{ index: this.tools - 1, function: { arguments: json } }] })];
      }
      default:
        return [];
    }
  }

  private onMessageDelta(data: JsonObject): JsonObject[] {
    this.setUsage(data.usage);
    const stopReason = asObject(data.delta).stop_reason;
    if (stopReason === undefined || stopReason === null) return [];
    this.stopReason = stopReason;
    return this.finish();
  }

  private finish(): JsonObject[] {
    if (this.finished) return [];
    this.finished = true;
    const missing = this.stopReason === null && this.tools > 0;
    return [this.chunk({}, missing ? 'tool_calls' : toFinishReason(this.stopReason))];
  }

  private close(): JsonObject[] {
    const out = this.finish();
    this.done = true;
    out.push(openAIChunk(this.id, this.created, this.model, [], openAIUsageFromCounts(this.usage)));
    return out;
  }
}

type Block =
  { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; toolIndex: number | undefined; toolId: string };

function sse(data: JsonMap & { type: string }): SseEvent {
  return { event: data.type, data: JSON.stringify(data) };
}

/** OpenAI chat.completion.chunk objects → Anthropic SSE events, as Anthropic's API writes them. */
export class OpenAIToAnthropicStream implements StreamConverter<JsonObject, SseEvent> {
  private readonly model: string;
  private id: string | undefined;
  private started = false;
  private closed = false;
  private blocks = 0;
  private current: Block | null = null;
  private sawTool = false;
  private finishReason: unknown = null;
  private usage: JsonMap | null = null;

  constructor(opts: { model: string; id?: string }) {
    this.model = opts.model;
    this.id = opts.id;
  }

  push(chunk: JsonObject): SseEvent[] {
    if (this.closed) return [];
    const out: SseEvent[] = [];
    if (isObject(chunk.usage)) this.usage = anthropicUsageFromOpenAI(chunk.usage);
    if (!this.started) out.push(this.start(chunk));
    const choice = asObject(asArray(chunk.choices)[0]);
    const delta = asObject(choice.delta);
    const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning);
    if (reasoning) this.append(out, { kind: 'thinking' }, { type: 'thinking_delta', thinking: reasoning });
    const text = asString(delta.content);
    if (text) this.append(out, { kind: 'text' }, { type: 'text_delta', text });
    for (const item of asArray(delta.tool_calls)) this.toolCall(out, asObject(item));
    const finish = choice.finish_reason;
    if (finish !== undefined && finish !== null) {
      this.finishReason = finish;
      this.stopBlock(out);
    }
    // Usage usually follows the finish chunk in a chunk of its own (stream_options.include_usage).
    if (this.finishReason !== null && isObject(chunk.usage)) out.push(...this.close());
    return out;
  }

  pushText(text: string): SseEvent[] | null {
    if (this.closed || !this.started) return null;
    const out: SseEvent[] = [];
    if (text) this.append(out, { kind: 'text' }, { type: 'text_delta', text });
    return out;
  }

  end(): SseEvent[] {
    if (this.closed) return [];
    const out: SseEvent[] = [];
    if (!this.started) out.push(this.start({}));
    out.push(...this.close());
    return out;
  }

  private start(chunk: JsonObject): SseEvent {
    this.started = true;
    this.id ??= anthropicMessageId(asString(chunk.id) || 'msg_gatehouse');
    const usage = this.usage ?? anthropicUsageFromOpenAI({});
    return sse({
      type: 'message_start',
      message: {
        id: this.id,
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 0 },
      },
    });
  }

  private stopBlock(out: SseEvent[]): void {
    if (!this.current) return;
    out.push(sse({ type: 'content_block_stop', index: this.blocks - 1 }));
    this.current = null;
  }

  private open(out: SseEvent[], block: Block, contentBlock: JsonMap): void {
    this.stopBlock(out);
    this.current = block;
    out.push(sse({ type: 'content_block_start', index: this.blocks++, content_block: contentBlock }));
  }

  /** Appends a text or thinking delta, opening a block of that kind when another kind is open. */
  private append(out: SseEvent[], block: Block, delta: JsonMap): void {
    if (this.current?.kind !== block.kind) {
      this.open(
        out,
        block,
        block.kind === 'text'
          ? { type: 'text', text: '' }
          : { type: 'thinking', thinking: '', signature: '' },
      );
    }
    out.push(sse({ type: 'content_block_delta', index: this.blocks - 1, delta }));
  }

  private toolCall(out: SseEvent[], call: JsonObject): void {
    const index = asNumber(call.index);
    const id = asString(call.id);
    const fn = asObject(call.function);
    const current = this.current;
    const isNew =
      current?.kind !== 'tool' ||
      (index !== undefined && index !== current.toolIndex) ||
      (id !== undefined && id !== '' && id !== current.toolId);
    if (isNew) {
      this.sawTool = true;
      const toolId = id || `toolu_${this.blocks}`;
      this.open(
        out,
        { kind: 'tool', toolIndex: index, toolId },
        { type: 'tool_use', id: anthropicToolId(toolId), name: asString(fn.name) ?? '', input: {} },
      );
    }
    const args = asString(fn.arguments);
    if (args) {
      out.push(
        sse({
          type: 'content_block_delta',
          index: this.blocks - 1,
          delta: { type: 'input_json_delta', partial_json: args },
        }),
      );
    }
  }

  private close(): SseEvent[] {
    const out: SseEvent[] = [];
    this.stopBlock(out);
    this.closed = true;
    const finish = this.finishReason;
    const stopReason =
      this.sawTool && (finish === null || finish === 'stop') ? 'tool_use' : toStopReason(finish);
    out.push(
      sse({
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: this.usage ?? anthropicUsageFromOpenAI({}),
      }),
    );
    out.push(sse({ type: 'message_stop' }));
    return out;
  }
}
