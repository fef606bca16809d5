/**
 * Responses API streaming events ⇄ OpenAI chat completion chunks.
 */
import type { JsonObject, SseEvent, StreamConverter } from '../../types';
import { asObject, isObject, num, objects, openAIChunk, parseJson, str, type JsonMap } from '../json';
import {
  chatFinishReason,
  functionCallItem,
  idSuffix,
  messageItem,
  outputText,
  reasoningItem,
  responseObject,
  responseStatus,
} from './response';
import { namespaceMap, type NamespaceMap } from './namespace';
import { openAIUsageToResponses, responsesUsageToOpenAI } from './usage';

interface TextItem {
  id: string;
  outputIndex: number;
  text: string;
}

interface CallItem {
  id: string;
  outputIndex: number;
  callId: string;
  name: string;
  args: string;
  done: boolean;
}

/**
 * Chat chunks → Responses SSE events, each with `event` equal to its `type` and an increasing
 * `sequence_number`: response.created and response.in_progress first; reasoning_content as a
 * reasoning item (reasoning_summary_part / reasoning_summary_text events), content as a message item
 * (content_part / output_text events), tool calls as function_call items
 * (function_call_arguments events); then response.completed (response.incomplete when the chat
 * finish_reason was length or content_filter) with the full output and usage, sent when the usage
 * chunk after the finish arrives, or at end().
 *
 * The done events and the final response carry the full texts and arguments, so those are
 * accumulated; nothing else grows with the stream. Only choice 0 is converted.
 */
export class OpenAIToResponsesStream implements StreamConverter<JsonObject, SseEvent> {
  private readonly model: string;
  private id: string | undefined;
  private createdAt: number | undefined;
  private seq = 0;
  private nextOutputIndex = 0;
  private started = false;
  private completed = false;
  private reasoning: TextItem | undefined;
  private message: TextItem | undefined;
  private readonly calls = new Map<number, CallItem>();
  /** Finished output items by output index. */
  private readonly output: JsonMap[] = [];
  private finishReason: string | undefined;
  private usage: JsonMap | undefined;

  /** The caller's Responses request: echoed in the Response objects, its namespaces mapped back. */
  private readonly request: JsonObject | undefined;
  private readonly namespaces: NamespaceMap;

  constructor(opts: { model: string; id?: string; createdAt?: number; request?: JsonObject }) {
    this.model = opts.model;
    this.id = opts.id;
    this.createdAt = opts.createdAt;
    this.request = opts.request;
    this.namespaces = namespaceMap(opts.request);
  }

  push(chunk: JsonObject): SseEvent[] {
    if (this.completed) return [];
    const out: SseEvent[] = [];
    this.start(chunk, out);
    const usage = openAIUsageToResponses(chunk.usage);
    if (usage !== undefined) this.usage = usage;
    const choice = objects(chunk.choices).find((c) => (num(c.index) ?? 0) === 0);
    if (choice !== undefined) {
      const delta = asObject(choice.delta);
      const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
      if (reasoning) this.reasoningDelta(reasoning, out);
      const content = str(delta.content);
      if (content) this.textDelta(content, out);
      for (const call of objects(delta.tool_calls)) this.toolDelta(call, out);
      const finish = str(choice.finish_reason);
      if (finish !== undefined) {
        this.finishReason = finish;
        this.closeAll(out);
      }
    }
    if (this.finishReason !== undefined && this.usage !== undefined) this.complete(out);
    return out;
  }

  pushText(text: string): SseEvent[] | null {
    if (this.completed || !this.started) return null;
    const out: SseEvent[] = [];
    if (text) this.textDelta(text, out);
    return out;
  }

  end(): SseEvent[] {
    if (this.completed || !this.started) return [];
    const out: SseEvent[] = [];
    this.closeAll(out);
    this.complete(out);
    return out;
  }

  private emit(out: SseEvent[], type: string, fields: JsonMap): void {
    out.push({ event: type, data: JSON.stringify({ type, sequence_number: this.seq++, ...fields }) });
  }

  private suffix(): string {
    return idSuffix(this.id ?? 'resp_0');
  }

  private response(status: string, output: JsonMap[], incompleteDetails?: JsonMap | null): JsonMap {
    return responseObject({
      id: this.id ?? 'resp_0',
      createdAt: this.createdAt ?? 0,
      model: this.model,
      status,
      incompleteDetails,
      output,
      usage: status === 'in_progress' ? undefined : this.usage,
      request: this.request,
    });
  }

  private start(chunk: JsonObject, out: SseEvent[]): void {
    if (this.started) return;
    this.started = true;
    const chatId = str(chunk.id);
    this.id ??= chatId === undefined ? 'resp_0' : `resp_${idSuffix(chatId)}`;
    this.createdAt ??= num(chunk.created) ?? 0;
    const response = this.response('in_progress', []);
    this.emit(out, 'response.created', { response });
    this.emit(out, 'response.in_progress', { response });
  }

  private reasoningDelta(delta: string, out: SseEvent[]): void {
    this.closeMessage(out);
    if (this.reasoning === undefined) {
      const outputIndex = this.nextOutputIndex++;
      const id = `rs_${this.suffix()}_${outputIndex}`;
      this.reasoning = { id, outputIndex, text: '' };
      this.emit(out, 'response.output_item.added', {
        output_index: outputIndex,
        item: reasoningItem(id, '', 'in_progress'),
      });
      this.emit(out, 'response.reasoning_summary_part.added', {
        item_id: id,
        output_index: outputIndex,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
    const r = this.reasoning;
    r.text += delta;
    this.emit(out, 'response.reasoning_summary_text.delta', {
      item_id: r.id,
      output_index: r.outputIndex,
      summary_index: 0,
      delta,
    });
  }

  private closeReasoning(out: SseEvent[]): void {
    const r = this.reasoning;
    if (r === undefined) return;
    this.reasoning = undefined;
    const common = { item_id: r.id, output_index: r.outputIndex, summary_index: 0 };
    this.emit(out, 'response.reasoning_summary_text.done', { ...common, text: r.text });
    this.emit(out, 'response.reasoning_summary_part.done', {
      ...common,
      part: { type: 'summary_text', text: r.text },
    });
    const item = reasoningItem(r.id, r.text);
    this.output[r.outputIndex] = item;
    this.emit(out, 'response.output_item.done', { output_index: r.outputIndex, item });
  }

  private textDelta(delta: string, out: SseEvent[]): void {
    this.closeReasoning(out);
    if (this.message === undefined) {
      const outputIndex = this.nextOutputIndex++;
      const id = `msg_${this.suffix()}_${outputIndex}`;
      this.message = { id, outputIndex, text: '' };
      this.emit(out, 'response.output_item.added', {
        output_index: outputIndex,
        item: messageItem(id, [], 'in_progress'),
      });
      this.emit(out, 'response.content_part.added', {
        item_id: id,
        output_index: outputIndex,
        content_index: 0,
        part: outputText(''),
      });
    }
    const m = this.message;
    m.text += delta;
    this.emit(out, 'response.output_text.delta', {
      item_id: m.id,
      output_index: m.outputIndex,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  private closeMessage(out: SseEvent[]): void {
    const m = this.message;
    if (m === undefined) return;
    this.message = undefined;
    const common = { item_id: m.id, output_index: m.outputIndex, content_index: 0 };
    this.emit(out, 'response.output_text.done', { ...common, text: m.text, logprobs: [] });
    this.emit(out, 'response.content_part.done', { ...common, part: outputText(m.text) });
    // A message cut by the token limit or a filter is itself incomplete.
    const item = messageItem(m.id, [outputText(m.text)], responseStatus(this.finishReason).status);
    this.output[m.outputIndex] = item;
    this.emit(out, 'response.output_item.done', { output_index: m.outputIndex, item });
  }

  private toolDelta(call: JsonMap, out: SseEvent[]): void {
    this.closeReasoning(out);
    this.closeMessage(out);
    const index = num(call.index) ?? this.calls.size;
    const fn = asObject(call.function);
    let item = this.calls.get(index);
    if (item === undefined || item.done) {
      const outputIndex = this.nextOutputIndex++;
      item = {
        id: `fc_${this.suffix()}_${outputIndex}`,
        outputIndex,
        callId: str(call.id) ?? `call_${outputIndex}`,
        name: str(fn.name) ?? '',
        args: '',
        done: false,
      };
      this.calls.set(index, item);
      this.emit(out, 'response.output_item.added', {
        output_index: outputIndex,
        item: functionCallItem(item.id, item.callId, item.name, '', 'in_progress', this.namespaces),
      });
    } else {
      item.name += str(fn.name) ?? '';
    }
    const delta = str(fn.arguments);
    if (delta) {
      item.args += delta;
      this.emit(out, 'response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: item.outputIndex,
        delta,
      });
    }
  }

  private closeAll(out: SseEvent[]): void {
    this.closeReasoning(out);
    this.closeMessage(out);
    for (const c of this.calls.values()) {
      if (c.done) continue;
      c.done = true;
      const item = functionCallItem(c.id, c.callId, c.name, c.args, 'completed', this.namespaces);
      this.emit(out, 'response.function_call_arguments.done', {
        item_id: c.id,
        output_index: c.outputIndex,
        name: item.name,
        arguments: c.args,
      });
      this.output[c.outputIndex] = item;
      this.emit(out, 'response.output_item.done', { output_index: c.outputIndex, item });
    }
  }

  private complete(out: SseEvent[]): void {
    this.completed = true;
    const { status, incomplete_details } = responseStatus(this.finishReason);
    const output = this.output.filter(isObject);
    const response = this.response(status, output, isObject(incomplete_details) ? incomplete_details : null);
    this.emit(out, status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
  }
}

/**
 * Responses SSE events → chat chunks (for a channel that only speaks Responses): a role chunk at
 * response.created, content / reasoning_content / refusal / tool_calls deltas, a finish chunk and a
 * `choices: []` usage chunk at response.completed (or .incomplete). response.failed and error events
 * become an `{error}` chunk. State: one entry per function call.
 */
export class ResponsesToOpenAIStream implements StreamConverter<SseEvent, JsonObject> {
  private id = 'chatcmpl-response';
  private model: string;
  private created: number;
  private roleSent = false;
  private finished = false;
  /** Tool call index and whether arguments were streamed, by output index. */
  private readonly calls = new Map<number, { index: number; argsSeen: boolean }>();

  constructor(opts: { model?: string; created?: number } = {}) {
    this.model = opts.model ?? '';
    this.created = opts.created ?? 0;
  }

  push(event: SseEvent): JsonMap[] {
    const data = parseJson(event.data);
    if (!isObject(data) || this.finished) return [];
    const type = str(data.type) ?? event.event;
    const out: JsonMap[] = [];
    const outputIndex = num(data.output_index) ?? 0;
    switch (type) {
      case 'response.created':
      case 'response.in_progress': {
        const response = asObject(data.response);
        const id = str(response.id);
        if (id !== undefined) this.id = `chatcmpl-${idSuffix(id)}`;
        this.model = str(response.model) ?? this.model;
        this.created = num(response.created_at) ?? this.created;
        this.delta({}, out);
        break;
      }
      case 'response.output_text.delta':
        this.delta({ content: str(data.delta) ?? '' }, out);
        break;
      case 'response.refusal.delta':
        this.delta({ refusal: str(data.delta) ?? '' }, out);
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.delta({ reasoning_content: str(data.delta) ?? '' }, out);
        break;
      case 'response.reasoning_summary_part.added':
        if ((num(data.summary_index) ?? 0) > 0) this.delta({ reasoning_content: '\n\n' }, out);
        break;
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const item = asObject(data.item);
        if (item.type === 'function_call') this.functionCall(outputIndex, item, type.endsWith('.done'), out);
        break;
      }
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(outputIndex);
        const delta = str(data.delta);
        if (call !== undefined && delta) {
          call.argsSeen = true;
          this.delta({ tool_calls: [{ index: call.index, function: { arguments: delta } }] }, out);
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = asObject(data.response);
        this.finished = true;
        this.delta({}, out, chatFinishReason(response, this.calls.size > 0));
        const usage = responsesUsageToOpenAI(response.usage);
        if (usage !== undefined) out.push(this.base([], usage));
        break;
      }
      case 'response.failed':
      case 'error': {
        this.finished = true;
        const error = type === 'error' ? data : asObject(asObject(data.response).error);
        out.push({
          error: {
            message: str(error.message) ?? 'upstream error',
            type: 'upstream_error',
            code: str(error.code) ?? null,
          },
        });
        break;
      }
    }
    return out;
  }

  end(): JsonMap[] {
    if (this.finished || !this.roleSent) return [];
    this.finished = true;
    const out: JsonMap[] = [];
    this.delta({}, out, this.calls.size > 0 ? 'tool_calls' : 'stop');
    return out;
  }

  private functionCall(outputIndex: number, item: JsonMap, done: boolean, out: JsonMap[]): void {
    let call = this.calls.get(outputIndex);
    const args = str(item.arguments) ?? '';
    if (call === undefined) {
      call = { index: this.calls.size, argsSeen: args !== '' };
      this.calls.set(outputIndex, call);
      const toolCall = {
        index: call.index,
        id: str(item.call_id) ?? str(item.id) ?? '',
        type: 'function',
        function: { name: str(item.name) ?? '', arguments: args },
      };
      this.delta({ tool_calls: [toolCall] }, out);
    } else if (done && !call.argsSeen && args !== '') {
      call.argsSeen = true;
      this.delta({ tool_calls: [{ index: call.index, function: { arguments: args } }] }, out);
    }
  }

  /** A chunk with the stream's id, time and model. */
  private base(choices: JsonMap[], usage?: JsonMap): JsonMap {
    return openAIChunk(this.id, this.created, this.model, choices, usage);
  }

  /** A chunk of `delta`, preceded by the role chunk if none was sent yet. */
  private delta(delta: JsonMap, out: JsonMap[], finishReason: string | null = null): void {
    if (!this.roleSent) {
      this.roleSent = true;
      out.push(this.base([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
      if (Object.keys(delta).length === 0 && finishReason === null) return;
    } else if (Object.keys(delta).length === 0 && finishReason === null) {
      return;
    }
    out.push(this.base([{ index: 0, delta, finish_reason: finishReason }]));
  }
}
