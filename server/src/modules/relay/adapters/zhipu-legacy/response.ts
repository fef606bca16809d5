/**
 * Zhipu v3 answer {code, msg, success, data: {task_id, choices: [{role, content}], usage}} → an OpenAI
 * chat completion. v3 returns the content as a quoted JSON string literal ("\"Hello\\nworld\""); it
 * is unquoted here. An error answer throws a RelayError.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, chatCompletion, num, parseJson, str, type ChunkMeta } from '../util';
import { zhipuAnswerError } from './errors';

/** The text of a v3 content value, unquoted when it is a JSON string literal. */
export function unquote(content: string): string {
  const trimmed = content.trim();
  if (trimmed.length < 2 || !trimmed.startsWith('"') || !trimmed.endsWith('"')) return content;
  const parsed = parseJson(trimmed);
  return typeof parsed === 'string' ? parsed : trimmed.slice(1, -1);
}

export function zhipuUsage(usage: unknown): { prompt: number; completion: number } {
  const u = asObj(usage);
  return { prompt: num(u.prompt_tokens) ?? 0, completion: num(u.completion_tokens) ?? 0 };
}

export function zhipuResponseToOpenAI(body: unknown, model: string, created: number): JsonObject {
  const error = zhipuAnswerError(body);
  if (error) throw error;
  const data = asObj(asObj(body).data);
  const content = arr(data.choices)
    .map((choice) => unquote(str(asObj(choice).content) ?? ''))
    .join('');
  const meta: ChunkMeta = {
    id: str(data.task_id) ?? str(data.request_id) ?? 'chatcmpl-zhipu',
    created,
    model,
  };
  const usage = zhipuUsage(data.usage);
  return chatCompletion(meta, { role: 'assistant', content }, 'stop', usage.prompt, usage.completion);
}
