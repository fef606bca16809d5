/**
 * Baidu legacy answers → OpenAI. Chat {id, created, result, finish_reason, function_call?, usage} →
 * chat.completion (a `function_call: {name, arguments, thoughts}` becomes one tool call, finish reason
 * tool_calls); embeddings {data: [{embedding}], usage} → an embeddings list. Error answers throw a RelayError.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, chatCompletion, embeddingList, isObj, type JsonRecord, num, str } from '../util';
import { baiduAnswerError } from './errors';

const FINISH_REASONS: Record<string, string> = {
  normal: 'stop',
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  function_call: 'tool_calls',
};

export function finishReason(reason: unknown): string {
  return FINISH_REASONS[str(reason) ?? ''] ?? 'stop';
}

export function baiduUsage(usage: unknown): { prompt: number; completion: number } {
  const u = asObj(usage);
  return { prompt: num(u.prompt_tokens) ?? 0, completion: num(u.completion_tokens) ?? 0 };
}

/** ERNIE's function_call → an OpenAI tool call (`call_<answer id>`), or null. */
export function baiduToolCall(functionCall: unknown, answerId: string): JsonRecord | null {
  if (!isObj(functionCall) || str(functionCall.name) === undefined) return null;
  return {
    id: `call_${answerId}`,
    type: 'function',
    function: { name: str(functionCall.name) ?? '', arguments: str(functionCall.arguments) ?? '{}' },
  };
}

export function baiduChatToOpenAI(body: unknown, model: string): JsonObject {
  const error = baiduAnswerError(body);
  if (error) throw error;
  const answer = asObj(body);
  const meta = { id: str(answer.id) ?? 'chatcmpl-baidu', created: num(answer.created) ?? 0, model };
  const usage = baiduUsage(answer.usage);
  const text = str(answer.result) ?? '';
  const call = baiduToolCall(answer.function_call, meta.id);
  if (call) {
    const message: JsonObject = { role: 'assistant', content: text === '' ? null : text, tool_calls: [call] };
    return chatCompletion(meta, message, 'tool_calls', usage.prompt, usage.completion);
  }
  const message = { role: 'assistant', content: text };
  return chatCompletion(meta, message, finishReason(answer.finish_reason), usage.prompt, usage.completion);
}

export function baiduEmbeddingsToOpenAI(body: unknown, model: string): JsonObject {
  const error = baiduAnswerError(body);
  if (error) throw error;
  const answer = asObj(body);
  const vectors = arr(answer.data).map((item) => asObj(item).embedding);
  return embeddingList(model, vectors, num(asObj(answer.usage).prompt_tokens) ?? 0);
}
