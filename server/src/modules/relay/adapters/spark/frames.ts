/**
 * Spark websocket frames. Request: {header: {app_id, uid}, parameter: {chat: {domain, temperature,
 * max_tokens}}, payload: {message: {text: [{role, content}]}, functions?: {text: [...]}}}.
 * Answer frames {header: {code, message, sid, status}, payload: {choices: {seq, text: [{content,
 * function_call?}]}, usage: {text: {prompt_tokens, completion_tokens}}}} become OpenAI
 * chat.completion.chunk objects; the last frame (status 2) adds a finish chunk and a usage chunk
 * (choices: []). A frame with code != 0 throws a RelayError.
 */
import type { Json, JsonObject } from '../../types';
import { arr, asObj, compact, json, num, str, textOf } from '../util';
import { sparkError } from './errors';

const ROLES = new Set(['system', 'user', 'assistant']);
const MAX_UID_LENGTH = 32;

/** A JSON object without undefined members (what chunk parts are). */
type JsonMap = { [key: string]: Json };

function clampTemperature(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.min(1, Math.max(0.01, value));
}

export function sparkRequestFrame(openaiBody: JsonObject, appId: string, domain: string): JsonObject {
  const text = arr(openaiBody.messages).map((message) => {
    const m = asObj(message);
    const role = str(m.role) ?? 'user';
    return { role: ROLES.has(role) ? role : 'user', content: textOf(m.content) };
  });
  const functions = arr(openaiBody.tools)
    .map((tool) => asObj(tool).function)
    .filter((fn) => fn !== undefined);
  return {
    header: compact({ app_id: appId, uid: str(openaiBody.user)?.slice(0, MAX_UID_LENGTH) }),
    parameter: {
      chat: compact({
        domain,
        temperature: clampTemperature(num(openaiBody.temperature)),
        max_tokens: num(openaiBody.max_completion_tokens) ?? num(openaiBody.max_tokens),
      }),
    },
    payload: compact({
      message: { text },
      functions: functions.length > 0 ? { text: functions.map((fn) => json(fn) ?? null) } : undefined,
    }),
  };
}

/** What the chunks of one answer share; defaults: the frame's sid, 0, "spark". */
export interface SparkChunkContext {
  id?: string;
  created?: number;
  model?: string;
}

/** True for the frame that ends the answer (status 2) or reports an error. */
export function sparkFrameIsLast(frame: unknown): boolean {
  const header = asObj(asObj(frame).header);
  return header.status === 2 || (num(header.code) ?? 0) !== 0;
}

export function sparkFrameToChunks(frame: unknown, context: SparkChunkContext = {}): JsonObject[] {
  const header = asObj(asObj(frame).header);
  const code = num(header.code) ?? 0;
  if (code !== 0) throw sparkError(code, str(header.message) ?? '');

  const payload = asObj(asObj(frame).payload);
  const choices = asObj(payload.choices);
  const id = context.id ?? str(header.sid) ?? 'chatcmpl-spark';
  const chunk = (choiceList: JsonMap[], extra: JsonMap = {}): JsonObject => ({
    id,
    object: 'chat.completion.chunk',
    created: context.created ?? 0,
    model: context.model ?? 'spark',
    choices: choiceList,
    ...extra,
  });
  const choice = (delta: JsonMap, finishReason: string | null = null): JsonMap => ({
    index: 0,
    delta,
    finish_reason: finishReason,
  });

  const out: JsonObject[] = [];
  const role: JsonMap = choices.seq === 0 ? { role: 'assistant' } : {};
  const part = asObj(arr(choices.text)[0]);
  const content = str(part.content) ?? '';
  const call = asObj(part.function_call);
  const calledFunction = str(call.name) !== undefined;
  if (calledFunction) {
    const toolCall = {
      index: 0,
      id: `call_${id}`,
      type: 'function',
      function: { name: str(call.name) ?? '', arguments: str(call.arguments) ?? '' },
    };
    out.push(chunk([choice({ ...role, content: null, tool_calls: [toolCall] })]));
  } else if (content !== '') {
    out.push(chunk([choice({ ...role, content })]));
  }

  if (header.status === 2) {
    out.push(chunk([choice({}, calledFunction ? 'tool_calls' : 'stop')]));
    const usage = asObj(payload.usage).text;
    if (usage !== undefined) {
      const prompt = num(asObj(usage).prompt_tokens) ?? 0;
      const completion = num(asObj(usage).completion_tokens) ?? 0;
      out.push(
        chunk([], {
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        }),
      );
    }
  }
  return out;
}
