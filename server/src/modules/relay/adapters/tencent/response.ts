/**
 * Hunyuan answer {Response: {Id, Created, Choices: [{Message: {Content}, FinishReason}], Usage:
 * {PromptTokens, CompletionTokens}}} → an OpenAI chat completion; an error answer throws a RelayError.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, chatCompletion, num, str } from '../util';
import { tencentAnswerError } from './errors';

export function hunyuanFinishReason(reason: unknown): string {
  const value = str(reason) ?? '';
  if (value === 'sensitive') return 'content_filter';
  return value === '' ? 'stop' : value;
}

export function hunyuanUsage(usage: unknown): { prompt: number; completion: number } {
  const u = asObj(usage);
  return { prompt: num(u.PromptTokens) ?? 0, completion: num(u.CompletionTokens) ?? 0 };
}

export function hunyuanToOpenAI(body: unknown, model: string, fallbackCreated: number): JsonObject {
  const error = tencentAnswerError(body);
  if (error) throw error;
  const answer = asObj(asObj(body).Response);
  const choice = asObj(arr(answer.Choices)[0]);
  const meta = {
    id: str(answer.Id) ?? str(answer.RequestId) ?? 'chatcmpl-hunyuan',
    created: num(answer.Created) ?? fallbackCreated,
    model,
  };
  const usage = hunyuanUsage(answer.Usage);
  const message = { role: 'assistant', content: str(asObj(choice.Message).Content) ?? '' };
  return chatCompletion(
    meta,
    message,
    hunyuanFinishReason(choice.FinishReason),
    usage.prompt,
    usage.completion,
  );
}
