/**
 * Gemini streamGenerateContent (SSE, one GenerateContentResponse per event) ⇄ OpenAI chat chunks.
 */
import type { JsonObject, SseEvent, StreamConverter } from '../../types';
import { asObject, isArray, isObject, num, objects, openAIChunk, parseJson, str, type JsonMap } from './json';
import {
  callIdPrefix,
  chatId,
  geminiFinishReason,
  messageToGeminiParts,
  openAIFinishReason,
  splitParts,
} from './response';
import { geminiUsageToOpenAI, openAIUsageToGemini } from './usage';

interface CandidateState {
  toolCalls: number;
  finished: boolean;
}

/**
 * Gemini SSE events → chat.completion.chunk objects. Per candidate: a first chunk with role
 * "assistant", content / reasoning_content / tool_calls deltas (Gemini sends each function call
 * whole), a finish chunk; at end() a `choices: []` chunk with the usage of the last usageMetadata
 * seen (Gemini repeats cumulative usage). State is per candidate, not per event.
 */
export class GeminiToOpenAIStream implements StreamConverter<SseEvent, JsonObject> {
  private readonly model: string;
  private readonly created: number;
  private id: string | undefined;
  private usageMetadata: JsonMap | undefined;
  private readonly candidates = new Map<number, CandidateState>();
  /** The random part of this answer's call ids (see callIdPrefix). */
  private readonly callPrefix = callIdPrefix();

  constructor(opts: { model: string; created?: number }) {
    this.model = opts.model;
    this.created = opts.created ?? 0;
  }

  push(event: SseEvent): JsonMap[] {
    const body = parseJson(event.data);
    if (!isObject(body)) return [];
    this.id ??= chatId(body);
    if (isObject(body.usageMetadata)) this.usageMetadata = body.usageMetadata;
    const out: JsonMap[] = [];
    const candidates = objects(body.candidates);
    candidates.forEach((candidate, position) => {
      const index = num(candidate.index) ?? position;
      const state = this.state(index, out);
      const parts = splitParts(
        objects(asObject(candidate.content).parts),
        state.toolCalls,
        index === 0 ? this.callPrefix : `${this.callPrefix}${index}`,
      );
      const delta: JsonMap = {};
      if (parts.reasoning !== '') delta.reasoning_content = parts.reasoning;
      if (parts.text !== '') delta.content = parts.text;
      if (parts.toolCalls.length > 0) {
        delta.tool_calls = parts.toolCalls.map((call, n) => ({ index: state.toolCalls + n, ...call }));
        state.toolCalls += parts.toolCalls.length;
      }
      if (Object.keys(delta).length > 0) out.push(this.chunk(index, delta, null));
      const reason = str(candidate.finishReason);
      if (reason !== undefined && !state.finished) {
        state.finished = true;
        out.push(this.chunk(index, {}, geminiFinishReason(reason, state.toolCalls > 0)));
      }
    });
    if (candidates.length === 0 && str(asObject(body.promptFeedback).blockReason) !== undefined) {
      const state = this.state(0, out);
      if (!state.finished) {
        state.finished = true;
        out.push(this.chunk(0, {}, 'content_filter'));
      }
    }
    return out;
  }

  end(): JsonMap[] {
    const out: JsonMap[] = [];
    for (const [index, state] of this.candidates) {
      if (!state.finished) {
        state.finished = true;
        out.push(this.chunk(index, {}, state.toolCalls > 0 ? 'tool_calls' : 'stop'));
      }
    }
    const usage = geminiUsageToOpenAI(this.usageMetadata);
    if (usage !== undefined) out.push(this.base([], usage));
    return out;
  }

  /** The candidate's state, emitting its role chunk the first time it is seen. */
  private state(index: number, out: JsonMap[]): CandidateState {
    let state = this.candidates.get(index);
    if (state === undefined) {
      state = { toolCalls: 0, finished: false };
      this.candidates.set(index, state);
      out.push(this.chunk(index, { role: 'assistant', content: '' }, null));
    }
    return state;
  }

  /** A chunk with the stream's id, time and model. */
  private base(choices: JsonMap[], usage?: JsonMap): JsonMap {
    return openAIChunk(this.id ?? 'chatcmpl-gemini', this.created, this.model, choices, usage);
  }

  private chunk(index: number, delta: JsonMap, finishReason: string | null): JsonMap {
    return this.base([{ index, delta, finish_reason: finishReason }]);
  }
}

interface PendingCall {
  id?: string;
  name: string;
  arguments: string;
  extra_content?: JsonMap;
}

/**
 * OpenAI chat chunks → Gemini SSE events (data only). Text and thought deltas are sent as they come;
 * tool call arguments, streamed in fragments by OpenAI, are buffered and sent as whole functionCall
 * parts on the last event, which carries finishReason and usageMetadata. That last event waits for
 * the usage chunk (sent after the finish chunk) or end(), whichever comes first. Only choice 0 is
 * converted.
 */
export class OpenAIToGeminiStream implements StreamConverter<JsonObject, SseEvent> {
  private modelVersion: string | undefined;
  private responseId: string | undefined;
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: string | undefined;
  private usageMetadata: JsonMap | undefined;
  private started = false;
  private done = false;

  constructor(opts: { model?: string } = {}) {
    this.modelVersion = opts.model;
  }

  push(chunk: JsonObject): SseEvent[] {
    if (this.done) return [];
    this.modelVersion ??= str(chunk.model);
    this.responseId ??= str(chunk.id);
    const usage = openAIUsageToGemini(chunk.usage);
    if (usage !== undefined) this.usageMetadata = usage;
    const out: SseEvent[] = [];
    const choice = objects(chunk.choices).find((c) => (num(c.index) ?? 0) === 0);
    if (choice !== undefined) {
      const delta = asObject(choice.delta);
      this.bufferToolCalls(delta);
      const parts = messageToGeminiParts({ ...delta, tool_calls: undefined }, []);
      if (parts.length > 0) out.push(this.event(parts, undefined, false));
      const finish = str(choice.finish_reason);
      if (finish !== undefined) this.finishReason = openAIFinishReason(finish);
    }
    if (this.finishReason !== undefined && this.usageMetadata !== undefined) out.push(...this.finish());
    return out;
  }

  pushText(text: string): SseEvent[] | null {
    // A chunk would first name the model and the answer: until both are known, it must be read.
    if (this.done || this.modelVersion === undefined || this.responseId === undefined) return null;
    const out: SseEvent[] = text ? [this.event([{ text }], undefined, false)] : [];
    if (this.finishReason !== undefined && this.usageMetadata !== undefined) out.push(...this.finish());
    return out;
  }

  end(): SseEvent[] {
    if (this.done || (!this.started && this.finishReason === undefined && this.usageMetadata === undefined)) {
      return [];
    }
    return this.finish();
  }

  private bufferToolCalls(delta: JsonMap): void {
    if (!isArray(delta.tool_calls)) return;
    for (const call of objects(delta.tool_calls)) {
      const index = num(call.index) ?? this.calls.size;
      const pending = this.calls.get(index) ?? { name: '', arguments: '' };
      const fn = asObject(call.function);
      pending.id ??= str(call.id);
      pending.name += str(fn.name) ?? '';
      pending.arguments += str(fn.arguments) ?? '';
      if (isObject(call.extra_content)) pending.extra_content = call.extra_content;
      this.calls.set(index, pending);
      this.started = true;
    }
  }

  private finish(): SseEvent[] {
    this.done = true;
    const toolCalls = [...this.calls.values()].map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
      extra_content: c.extra_content,
    }));
    const parts = messageToGeminiParts({}, toolCalls);
    return [this.event(parts.length > 0 ? parts : [{ text: '' }], this.finishReason ?? 'STOP', true)];
  }

  private event(parts: JsonMap[], finishReason: string | undefined, last: boolean): SseEvent {
    this.started = true;
    const candidate: JsonMap = { content: { role: 'model', parts }, index: 0 };
    if (finishReason !== undefined) candidate.finishReason = finishReason;
    const body: JsonMap = { candidates: [candidate] };
    if (last && this.usageMetadata !== undefined) body.usageMetadata = this.usageMetadata;
    if (this.modelVersion !== undefined) body.modelVersion = this.modelVersion;
    if (this.responseId !== undefined) body.responseId = this.responseId;
    return { data: JSON.stringify(body) };
  }
}
