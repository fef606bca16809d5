/**
 * Gemini GenerateContentResponse ⇄ OpenAI chat.completion.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../../types';
import {
  argumentsObject,
  asObject,
  contentText,
  isObject,
  num,
  objects,
  pick,
  str,
  type JsonMap,
} from './json';
import { geminiUsageToOpenAI, openAIUsageToGemini } from './usage';

const CONTENT_FILTER_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/** Gemini finishReason → OpenAI finish_reason (STOP with function calls → tool_calls). */
export function geminiFinishReason(reason: string | undefined, hasToolCalls: boolean): string {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER_REASONS.has(reason)) return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** OpenAI finish_reason → Gemini finishReason. */
export function openAIFinishReason(reason: string): string {
  if (reason === 'length') return 'MAX_TOKENS';
  if (reason === 'content_filter') return 'SAFETY';
  return 'STOP';
}

export interface GeminiParts {
  text: string;
  reasoning: string;
  toolCalls: JsonMap[];
}

/** An inline image of an answer (image models) as a markdown data-URL image; '' for other media. */
function inlineImageMarkdown(inline: JsonMap): string {
  const mime = str(pick(inline, 'mimeType')) ?? '';
  const data = str(inline.data);
  if (!mime.startsWith('image/') || data === undefined) return '';
  return `![image](data:${mime};base64,${data})`;
}

/**
 * A random part for the call ids of one answer: Gemini's function calls usually carry no id, and ids
 * made up per answer alone (`call_0` every turn) would repeat across a conversation's turns, which
 * other providers refuse in a history (Anthropic: tool_use ids must be unique).
 */
export function callIdPrefix(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * Text, thought text, function calls and inline images (as markdown data-URL images) of candidate parts. Function calls get their own `id` or
 * `call_<prefix>_<firstToolIndex + n>`; a thoughtSignature travels in extra_content.google.thought_signature.
 */
export function splitParts(parts: JsonMap[], firstToolIndex = 0, prefix = callIdPrefix()): GeminiParts {
  const out: GeminiParts = { text: '', reasoning: '', toolCalls: [] };
  for (const part of parts) {
    const fc = pick(part, 'functionCall');
    if (isObject(fc)) {
      const call: JsonMap = {
        id: str(fc.id) ?? `call_${prefix}_${firstToolIndex + out.toolCalls.length}`,
        type: 'function',
        function: { name: str(fc.name) ?? '', arguments: JSON.stringify(fc.args ?? {}) },
      };
      const signature = str(pick(part, 'thoughtSignature'));
      if (signature !== undefined) call.extra_content = { google: { thought_signature: signature } };
      out.toolCalls.push(call);
    } else if (typeof part.text === 'string') {
      if (part.thought === true) out.reasoning += part.text;
      else out.text += part.text;
    } else if (isObject(pick(part, 'inlineData'))) {
      out.text += inlineImageMarkdown(pick(part, 'inlineData') as JsonMap);
    }
  }
  return out;
}

/** chat.completion id of a Gemini answer. */
export function chatId(body: JsonObject): string {
  const responseId = str(body.responseId);
  return responseId === undefined ? 'chatcmpl-gemini' : `chatcmpl-${responseId}`;
}

/**
 * Gemini generateContent answer → OpenAI chat.completion. `created` defaults to 0 (converters read
 * no clock; callers pass the time). A prompt blocked before any candidate (promptFeedback.blockReason)
 * yields one empty assistant message with finish_reason content_filter.
 */
export function geminiToOpenAIResponse(body: JsonObject, model: string, created = 0): JsonMap {
  const prefix = callIdPrefix();
  const choices: JsonMap[] = objects(body.candidates).map((candidate, position) => {
    const { text, reasoning, toolCalls } = splitParts(
      objects(asObject(candidate.content).parts),
      0,
      position === 0 ? prefix : `${prefix}${position}`,
    );
    const message: JsonMap = {
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
    };
    if (reasoning !== '') message.reasoning_content = reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
      index: num(candidate.index) ?? position,
      message,
      finish_reason: geminiFinishReason(str(candidate.finishReason), toolCalls.length > 0),
    };
  });
  if (choices.length === 0) {
    const blocked = str(asObject(body.promptFeedback).blockReason) !== undefined;
    choices.push({
      index: 0,
      message: { role: 'assistant', content: '' },
      finish_reason: blocked ? 'content_filter' : 'stop',
    });
  }
  const out: JsonMap = { id: chatId(body), object: 'chat.completion', created, model, choices };
  const usage = geminiUsageToOpenAI(body.usageMetadata);
  if (usage !== undefined) out.usage = usage;
  return out;
}

/** One OpenAI message (or delta) as Gemini parts: thought text, text, then function calls. */
export function messageToGeminiParts(message: JsonObject, toolCalls: JsonObject[]): JsonMap[] {
  const parts: JsonMap[] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning) parts.push({ text: reasoning, thought: true });
  const text = contentText(message.content);
  if (text !== '') parts.push({ text });
  for (const call of toolCalls) {
    const fn = asObject(call.function);
    const part: JsonMap = { functionCall: { name: str(fn.name) ?? '', args: argumentsObject(fn.arguments) } };
    const signature = str(asObject(asObject(call.extra_content).google).thought_signature);
    if (signature !== undefined) part.thoughtSignature = signature;
    parts.push(part);
  }
  return parts;
}

/** OpenAI chat.completion → Gemini generateContent answer. */
export function openAIToGeminiResponse(body: JsonObject): JsonMap {
  const candidates = objects(body.choices).map((choice, position) => {
    const message = asObject(choice.message);
    const parts = messageToGeminiParts(message, objects(message.tool_calls));
    const candidate: JsonMap = {
      content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
      index: num(choice.index) ?? position,
    };
    const finish = str(choice.finish_reason);
    if (finish !== undefined) candidate.finishReason = openAIFinishReason(finish);
    return candidate;
  });
  const out: JsonMap = { candidates };
  const usage = openAIUsageToGemini(body.usage);
  if (usage !== undefined) out.usageMetadata = usage;
  const model = str(body.model);
  if (model !== undefined) out.modelVersion = model;
  const id = str(body.id);
  if (id !== undefined) out.responseId = id;
  return out;
}
