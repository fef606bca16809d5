/**
 * Baidu legacy answers → OpenAI. Chat {id, created, result, finish_reason, usage} → chat.completion;
 * embeddings {data: [{embedding}], usage} → an embeddings list. Error answers throw a RelayError.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, chatCompletion, embeddingList, num, str } from '../util';
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

export function baiduChatToOpenAI(body: unknown, model: string): JsonObject {
  const error = baiduAnswerError(body);
  if (error) throw error;
  const answer = asObj(body);
  const meta = { id: str(answer.id) ?? 'chatcmpl-baidu', created: num(answer.created) ?? 0, model };
  const usage = baiduUsage(answer.usage);
  const message = { role: 'assistant', content: str(answer.result) ?? '' };
  return chatCompletion(meta, message, finishReason(answer.finish_reason), usage.prompt, usage.completion);
}

export function baiduEmbeddingsToOpenAI(body: unknown, model: string): JsonObject {
  const error = baiduAnswerError(body);
  if (error) throw error;
  const answer = asObj(body);
  const vectors = arr(answer.data).map((item) => asObj(item).embedding);
  return embeddingList(model, vectors, num(asObj(answer.usage).prompt_tokens) ?? 0);
}
