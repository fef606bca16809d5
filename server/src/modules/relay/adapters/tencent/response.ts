/**
 * Hunyuan answer {Response: {Id, Created, Choices: [{Message: {Content, ToolCalls?}, FinishReason}],
 * Usage: {PromptTokens, CompletionTokens}}} → an OpenAI chat completion (ToolCalls [{Id, Type,
 * Function: {Name, Arguments}}] → tool_calls); an error answer throws a RelayError.
 */
import type { JsonObject } from '../../types';
import { arr, asObj, chatCompletion, type JsonRecord, num, str } from '../util';
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

/** Hunyuan ToolCalls → OpenAI tool calls (complete ones: a non-streamed answer). */
export function hunyuanToolCalls(calls: unknown): JsonRecord[] {
  return arr(calls)
    .map(asObj)
    .map((call, i) => ({
      id: str(call.Id) ?? `call_${i}`,
      type: 'function',
      function: {
        name: str(asObj(call.Function).Name) ?? '',
        arguments: str(asObj(call.Function).Arguments) ?? '{}',
      },
    }));
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
  const text = str(asObj(choice.Message).Content) ?? '';
  const toolCalls = hunyuanToolCalls(asObj(choice.Message).ToolCalls);
  const message: JsonObject =
    toolCalls.length > 0
      ? { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }
      : { role: 'assistant', content: text };
  return chatCompletion(
    meta,
    message,
    toolCalls.length > 0 ? 'tool_calls' : hunyuanFinishReason(choice.FinishReason),
    usage.prompt,
    usage.completion,
  );
}
