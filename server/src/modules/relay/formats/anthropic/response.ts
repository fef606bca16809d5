/** Non-stream answers between an Anthropic message and an OpenAI chat.completion. */
import type { JsonObject } from '../../types';
import {
  anthropicMessageId,
  anthropicToolId,
  openAIMessageId,
  openAIToolId,
  asArray,
  asObject,
  asString,
  isObject,
  type JsonMap,
  parseArguments,
  toFinishReason,
  toStopReason,
} from './shared';
import { anthropicUsage, anthropicUsageFromOpenAI, openAIUsageFromCounts } from './usage';

/** An Anthropic message → an OpenAI chat.completion. `created` is the Unix time to report (no clock is read). */
export function anthropicToOpenAIResponse(body: JsonObject, created = 0): JsonObject {
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: JsonMap[] = [];
  for (const item of asArray(body.content)) {
    const block = asObject(item);
    if (block.type === 'text') {
      texts.push(asString(block.text) ?? '');
    } else if (block.type === 'thinking') {
      thinking.push(asString(block.thinking) ?? '');
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: openAIToolId(asString(block.id) ?? ''),
        type: 'function',
        function: { name: asString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: JsonMap = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thinking.length > 0) message.reasoning_content = thinking.join('\n');
  return {
    id: openAIMessageId(asString(body.id) ?? ''),
    object: 'chat.completion',
    created,
    model: asString(body.model) ?? '',
    choices: [{ index: 0, message, logprobs: null, finish_reason: toFinishReason(body.stop_reason) }],
    usage: openAIUsageFromCounts(anthropicUsage(body.usage)),
  };
}

/** Text of an OpenAI message content (string, or text/refusal parts). */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((item) => {
      const part = asObject(item);
      return asString(part.text) ?? asString(part.refusal) ?? '';
    })
    .join('');
}

/** An OpenAI chat.completion → an Anthropic message. */
export function openAIToAnthropicResponse(body: JsonObject): JsonObject {
  const choice = asObject(asArray(body.choices)[0]);
  const message = asObject(choice.message);
  const content: JsonMap[] = [];
  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = messageText(message.content) || (asString(message.refusal) ?? '');
  if (text) content.push({ type: 'text', text });
  for (const item of asArray(message.tool_calls)) {
    const call = asObject(item);
    const fn = asObject(call.function);
    content.push({
      type: 'tool_use',
      id: anthropicToolId(asString(call.id) ?? ''),
      name: asString(fn.name) ?? '',
      input: parseArguments(fn.arguments),
    });
  }
  const hasTools = content.some((b) => b.type === 'tool_use');
  // Some upstreams report "stop" for an answer that calls tools.
  const stopReason =
    hasTools && (choice.finish_reason === 'stop' || !choice.finish_reason)
      ? 'tool_use'
      : toStopReason(choice.finish_reason);
  return {
    id: anthropicMessageId(asString(body.id) ?? ''),
    type: 'message',
    role: 'assistant',
    model: asString(body.model) ?? '',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: anthropicUsageFromOpenAI(isObject(body.usage) ? body.usage : {}),
  };
}
