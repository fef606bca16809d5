/**
 * Cohere v2 answers → hub (OpenAI) answers: chat → chat.completion (thinking, else the tool plan, as
 * reasoning_content), rerank → {results, usage}, embed → an embeddings list. Usage prefers Cohere's
 * billed units over raw token counts.
 */
import type { JsonObject } from '../../types';
import {
  arr,
  asObj,
  chatCompletion,
  compact,
  embeddingList,
  isObj,
  normalizeRerank,
  num,
  str,
} from '../util';
import { documentText } from './request';

const FINISH_REASONS: Readonly<Record<string, string>> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  ERROR_TOXIC: 'content_filter',
};

export function finishReason(reason: unknown): string {
  return FINISH_REASONS[str(reason) ?? ''] ?? 'stop';
}

/** [prompt, completion] tokens of a Cohere usage object. */
export function cohereUsage(usage: unknown): [number, number] {
  const billed = asObj(asObj(usage).billed_units);
  const tokens = asObj(asObj(usage).tokens);
  return [
    num(billed.input_tokens) ?? num(tokens.input_tokens) ?? 0,
    num(billed.output_tokens) ?? num(tokens.output_tokens) ?? 0,
  ];
}

export function cohereChatToOpenAi(body: unknown, model: string): JsonObject {
  const answer = asObj(body);
  const message = asObj(answer.message);
  const parts = arr(message.content).filter(isObj);
  const text = parts.map((part) => (part.type === 'text' ? (str(part.text) ?? '') : '')).join('');
  const thinking =
    parts.map((part) => (part.type === 'thinking' ? (str(part.thinking) ?? '') : '')).join('') ||
    (str(message.tool_plan) ?? '');
  const toolCalls = arr(message.tool_calls)
    .filter(isObj)
    .map((call, index) => {
      const fn = asObj(call.function);
      return {
        id: str(call.id) ?? `call_${index}`,
        type: 'function',
        function: { name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '{}' },
      };
    });
  const reply = compact({
    role: 'assistant',
    content: text !== '' || toolCalls.length === 0 ? text : null,
    reasoning_content: thinking !== '' ? thinking : undefined,
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
  });
  const [prompt, completion] = cohereUsage(answer.usage);
  const meta = { id: str(answer.id) ?? 'chatcmpl-cohere', created: 0, model };
  return chatCompletion(meta, reply, finishReason(answer.finish_reason), prompt, completion);
}

export function cohereRerankToOpenAi(body: unknown, request: JsonObject): JsonObject {
  const answer = asObj(body);
  const documents = arr(request.documents);
  const withDocuments = request.return_documents === true;
  const results = arr(answer.results)
    .filter(isObj)
    .map((result) => {
      const index = num(result.index) ?? 0;
      return compact({
        index,
        relevance_score: num(result.relevance_score) ?? 0,
        document: withDocuments ? { text: documentText(documents[index]) } : undefined,
      });
    });
  return normalizeRerank(compact({ id: str(answer.id), results, meta: answer.meta }));
}

export function cohereEmbedToOpenAi(body: unknown, model: string): JsonObject {
  const answer = asObj(body);
  const vectors = Array.isArray(answer.embeddings)
    ? arr(answer.embeddings)
    : arr(asObj(answer.embeddings).float);
  const tokens = num(asObj(asObj(answer.meta).billed_units).input_tokens) ?? 0;
  return embeddingList(model, vectors, tokens);
}
