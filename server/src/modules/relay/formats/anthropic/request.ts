/**
 * Request bodies between Anthropic Messages (/v1/messages) and OpenAI chat completions (the hub).
 * Only fields with a counterpart are carried over: a field the other side does not know would be
 * refused by strict upstreams (OpenAI rejects top_k, Anthropic rejects n...).
 */
import type { Json, JsonObject } from '../../types';
import {
  anthropicToolId,
  openAIToolId,
  asArray,
  asNumber,
  asObject,
  asString,
  compact,
  isObject,
  type JsonMap,
  parseArguments,
} from './shared';

// ---------------------------------------------------------------------------------------------
// Anthropic → OpenAI
// ---------------------------------------------------------------------------------------------

/** Text of a string or of the text blocks of an array (system prompts, tool results). */
function blocksText(content: unknown, separator: string): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const item of asArray(content)) {
    const block = asObject(item);
    const text = asString(block.text);
    if (block.type === 'text' && text !== undefined) texts.push(text);
  }
  return texts.join(separator);
}

/** An Anthropic image or document block → an OpenAI content part, or null when it has no counterpart. */
function mediaPart(block: JsonObject): JsonMap | null {
  const source = asObject(block.source);
  const url = asString(source.url);
  const data = asString(source.data);
  const mediaType = asString(source.media_type);
  if (block.type === 'image') {
    if (source.type === 'base64' && data !== undefined) {
      return { type: 'image_url', image_url: { url: `data:${mediaType ?? 'image/png'};base64,${data}` } };
    }
    if (source.type === 'url' && url !== undefined) return { type: 'image_url', image_url: { url } };
    return null;
  }
  if (block.type === 'document') {
    if (source.type === 'base64' && data !== undefined) {
      const file: JsonMap = { file_data: `data:${mediaType ?? 'application/pdf'};base64,${data}` };
      const title = asString(block.title);
      if (title !== undefined) file.filename = title;
      return { type: 'file', file };
    }
    if (source.type === 'text' && data !== undefined) return { type: 'text', text: data };
  }
  return null;
}

/** All-text parts collapse to one string: several OpenAI-compatible upstreams only accept strings. */
function collapseParts(parts: JsonMap[]): Json {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => asString(p.text) ?? '').join('\n');
  return parts;
}

/** A user turn: tool results become `tool` messages (first), the rest one user message. */
function userMessages(content: unknown): JsonMap[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: JsonMap[] = [];
  const parts: JsonMap[] = [];
  for (const item of asArray(content)) {
    const block = asObject(item);
    if (block.type === 'text') {
      const text = asString(block.text);
      if (text) parts.push({ type: 'text', text });
    } else if (block.type === 'tool_result') {
      tools.push({
        role: 'tool',
        tool_call_id: openAIToolId(asString(block.tool_use_id) ?? ''),
        content: blocksText(block.content, '\n'),
      });
      // A tool message holds text only: images and documents a tool returned ride along in the
      // user message.
      for (const inner of asArray(block.content)) {
        const innerBlock = asObject(inner);
        const part = innerBlock.type === 'text' ? null : mediaPart(innerBlock);
        if (part) parts.push(part);
      }
    } else {
      const part = mediaPart(block);
      if (part) parts.push(part);
    }
  }
  const out: JsonMap[] = [...tools];
  if (parts.length > 0) out.push({ role: 'user', content: collapseParts(parts) });
  return out;
}

/** An assistant turn: text blocks → content, tool_use → tool_calls; thinking blocks are dropped. */
function assistantMessage(content: unknown): JsonMap | null {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const toolCalls: JsonMap[] = [];
  for (const item of asArray(content)) {
    const block = asObject(item);
    if (block.type === 'text') {
      const text = asString(block.text);
      if (text) texts.push(text);
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: openAIToolId(asString(block.id) ?? ''),
        type: 'function',
        function: { name: asString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  if (texts.length === 0 && toolCalls.length === 0) return null;
  const message: JsonMap = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function openAITools(tools: unknown): JsonMap[] {
  const out: JsonMap[] = [];
  for (const item of asArray(tools)) {
    const tool = asObject(item);
    // Server tools (web_search_20250305, bash_...) run at Anthropic and have no OpenAI counterpart.
    if (tool.type !== undefined && tool.type !== 'custom') continue;
    const fn: JsonMap = { name: asString(tool.name) ?? '' };
    const description = asString(tool.description);
    if (description !== undefined) fn.description = description;
    fn.parameters = tool.input_schema ?? { type: 'object', properties: {} };
    out.push({ type: 'function', function: fn });
  }
  return out;
}

function openAIToolChoice(choice: unknown): Json | undefined {
  const c = asObject(choice);
  switch (c.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: asString(c.name) ?? '' } };
    default:
      return undefined;
  }
}

/** Extended-thinking budget → OpenAI reasoning effort. */
function reasoningEffort(body: JsonObject): string | undefined {
  const effort = asObject(body.output_config).effort;
  if (effort === 'low' || effort === 'medium' || effort === 'high') return effort;
  const thinking = asObject(body.thinking);
  if (thinking.type === 'adaptive') return 'medium';
  if (thinking.type !== 'enabled') return undefined;
  const budget = asNumber(thinking.budget_tokens) ?? 0;
  if (budget < 4096) return 'low';
  if (budget < 16384) return 'medium';
  return 'high';
}

/** An inbound Anthropic /v1/messages request → an OpenAI chat completions request. */
export function anthropicToOpenAIRequest(body: JsonObject): JsonObject {
  const messages: JsonMap[] = [];
  const system = blocksText(body.system, '\n');
  if (system) messages.push({ role: 'system', content: system });
  for (const item of asArray(body.messages)) {
    const message = asObject(item);
    if (message.role === 'assistant') {
      const converted = assistantMessage(message.content);
      if (converted) messages.push(converted);
    } else {
      messages.push(...userMessages(message.content));
    }
  }

  const out: JsonObject = { model: body.model, messages };
  const tools = openAITools(body.tools);
  if (tools.length > 0) {
    out.tools = tools;
    const choice = openAIToolChoice(body.tool_choice);
    if (choice !== undefined) out.tool_choice = choice;
    if (asObject(body.tool_choice).disable_parallel_tool_use === true && choice !== 'none') {
      out.parallel_tool_calls = false;
    }
  }
  if (asNumber(body.max_tokens) !== undefined) out.max_tokens = body.max_tokens;
  if (asNumber(body.temperature) !== undefined) out.temperature = body.temperature;
  if (asNumber(body.top_p) !== undefined) out.top_p = body.top_p;
  // Not an OpenAI field: it serves a Gemini channel (topK); an OpenAI channel refuses it before.
  if (asNumber(body.top_k) !== undefined) out.top_k = body.top_k;
  const stop = asArray(body.stop_sequences).filter((s) => typeof s === 'string');
  if (stop.length > 0) out.stop = stop;
  if (typeof body.stream === 'boolean') out.stream = body.stream;
  if (body.stream === true) out.stream_options = { include_usage: true };
  const metadata = asObject(body.metadata);
  const user = asString(metadata.user_id) ?? asString(metadata.user);
  if (user !== undefined) out.user = user;
  const effort = reasoningEffort(body);
  if (effort !== undefined) out.reasoning_effort = effort;
  const format = structuredOutput(body);
  if (format !== undefined) out.response_format = format as Json;
  return out;
}

/**
 * Structured output (`output_config.format`, or the earlier beta's `output_format`) → OpenAI
 * response_format json_schema (Anthropic always enforces the schema: strict).
 */
function structuredOutput(body: JsonObject): JsonObject | undefined {
  const format = asObject(asObject(body.output_config).format ?? body.output_format);
  if (format.type !== 'json_schema' || !isObject(format.schema)) return undefined;
  return {
    type: 'json_schema',
    json_schema: { name: 'response', schema: format.schema as Json, strict: true },
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAI → Anthropic
// ---------------------------------------------------------------------------------------------

export interface OpenAIToAnthropicOptions {
  /** max_tokens is required by Anthropic: used when the request sets neither max_tokens nor max_completion_tokens. */
  defaultMaxTokens: number;
  /** When set and the request has a reasoning_effort, thinking gets this share of max_tokens (at least 1024). */
  thinkingBudgetPercentage?: number;
}

/** Anthropic accepts tool ids matching [a-zA-Z0-9_-]+ only. */
function toolId(id: unknown): string {
  const s = asString(id);
  return s ? anthropicToolId(s.replace(/[^a-zA-Z0-9_-]/g, '_')) : 'toolu_unknown';
}

/** An OpenAI image URL → an Anthropic image block (base64 for data URLs, url source otherwise). */
function imageBlock(url: string): JsonMap | null {
  const data = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (data) {
    if (!data[2].split(';').includes('base64')) return null;
    return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[3] } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return null;
}

function textBlock(text: string, part: JsonObject): JsonMap {
  const block: JsonMap = { type: 'text', text };
  if (isObject(part.cache_control)) block.cache_control = compact(part.cache_control);
  return block;
}

/** OpenAI message content (string or parts) → Anthropic blocks; empty text is dropped (Anthropic refuses it). */
function contentBlocks(content: unknown): JsonMap[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: JsonMap[] = [];
  for (const item of asArray(content)) {
    const part = asObject(item);
    const text = asString(part.text) ?? asString(part.refusal);
    if ((part.type === 'text' || part.type === 'refusal') && text) {
      blocks.push(textBlock(text, part));
    } else if (part.type === 'image_url') {
      const url = asString(part.image_url) ?? asString(asObject(part.image_url).url);
      const block = url === undefined ? null : imageBlock(url);
      if (block) blocks.push(block);
    } else if (part.type === 'file') {
      const file = asObject(part.file);
      const data = /^data:([^;,]+);base64,(.*)$/s.exec(asString(file.file_data) ?? '');
      // `file_url` (a PDF by URL from a Gemini fileData part) is the hub's own, not chat's.
      const url = asString(file.file_url);
      if (data)
        blocks.push({ type: 'document', source: { type: 'base64', media_type: data[1], data: data[2] } });
      else if (url !== undefined && /^https?:\/\//i.test(url))
        blocks.push({ type: 'document', source: { type: 'url', url } });
    }
  }
  return blocks;
}

function contentText(content: unknown): string {
  return contentBlocks(content)
    .filter((b) => b.type === 'text')
    .map((b) => asString(b.text) ?? '')
    .join('\n');
}

function assistantBlocks(message: JsonObject): JsonMap[] {
  const blocks = contentBlocks(message.content).filter((b) => b.type === 'text');
  for (const item of asArray(message.tool_calls)) {
    const call = asObject(item);
    const fn = asObject(call.function);
    blocks.push({
      type: 'tool_use',
      id: toolId(call.id),
      name: asString(fn.name) ?? '',
      input: parseArguments(fn.arguments),
    });
  }
  return blocks;
}

function toolResultBlock(message: JsonObject): JsonMap {
  const block: JsonMap = { type: 'tool_result', tool_use_id: toolId(message.tool_call_id) };
  const blocks = contentBlocks(message.content).filter((b) => b.type === 'text' || b.type === 'image');
  if (blocks.some((b) => b.type === 'image')) block.content = blocks;
  else if (blocks.length > 0) block.content = blocks.map((b) => asString(b.text) ?? '').join('\n');
  return block;
}

function anthropicTools(tools: unknown): JsonMap[] {
  const out: JsonMap[] = [];
  for (const item of asArray(tools)) {
    const tool = asObject(item);
    if (tool.type !== undefined && tool.type !== 'function') continue;
    const fn = asObject(tool.function);
    const converted: JsonMap = { name: asString(fn.name) ?? '' };
    const description = asString(fn.description);
    if (description !== undefined) converted.description = description;
    converted.input_schema = isObject(fn.parameters)
      ? compact(fn.parameters)
      : { type: 'object', properties: {} };
    out.push(converted);
  }
  return out;
}

function anthropicToolChoice(choice: unknown, parallel: unknown): JsonMap | undefined {
  let out: JsonMap | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') return { type: 'none' };
  else if (isObject(choice)) {
    const name = asString(asObject(choice.function).name);
    if (name !== undefined) out = { type: 'tool', name };
  }
  if (parallel === false) {
    out ??= { type: 'auto' };
    out.disable_parallel_tool_use = true;
  }
  return out;
}

/** An OpenAI chat completions request → an Anthropic /v1/messages request. */
export function openAIToAnthropicRequest(body: JsonObject, opts: OpenAIToAnthropicOptions): JsonObject {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; content: JsonMap[] }[] = [];
  // Anthropic wants user and assistant turns to alternate: consecutive same-role messages merge.
  const add = (role: 'user' | 'assistant', blocks: JsonMap[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const item of asArray(body.messages)) {
    const message = asObject(item);
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = contentText(message.content);
        if (text) system.push(text);
        break;
      }
      case 'assistant':
        add('assistant', assistantBlocks(message));
        break;
      case 'tool':
        add('user', [toolResultBlock(message)]);
        break;
      default:
        add('user', contentBlocks(message.content));
    }
  }
  // Within a user turn, tool results must come before anything else.
  const messages: JsonMap[] = turns.map(({ role, content }) => ({
    role,
    content:
      role === 'user'
        ? [
            ...content.filter((b) => b.type === 'tool_result'),
            ...content.filter((b) => b.type !== 'tool_result'),
          ]
        : content,
  }));

  const maxTokens =
    asNumber(body.max_tokens) ?? asNumber(body.max_completion_tokens) ?? opts.defaultMaxTokens;
  const out: JsonObject = { model: body.model, messages, max_tokens: maxTokens };
  if (system.length > 0) out.system = system.join('\n');
  const tools = anthropicTools(body.tools);
  if (tools.length > 0) {
    out.tools = tools;
    const choice = anthropicToolChoice(body.tool_choice, body.parallel_tool_calls);
    if (choice) out.tool_choice = choice;
  }
  const stop = typeof body.stop === 'string' ? [body.stop] : asArray(body.stop);
  const stopSequences = stop.filter((s) => typeof s === 'string' && s !== '');
  if (stopSequences.length > 0) out.stop_sequences = stopSequences;
  const temperature = asNumber(body.temperature);
  // OpenAI allows up to 2, Anthropic up to 1.
  if (temperature !== undefined) out.temperature = Math.min(Math.max(temperature, 0), 1);
  if (asNumber(body.top_p) !== undefined) out.top_p = body.top_p;
  // top_k of a Gemini (topK) or Anthropic caller, through the hub.
  if (asNumber(body.top_k) !== undefined) out.top_k = body.top_k;
  if (typeof body.stream === 'boolean') out.stream = body.stream;
  const user = asString(body.user) ?? asString(body.safety_identifier);
  if (user !== undefined) out.metadata = { user_id: user };
  // response_format json_schema → output_config.format (json_object has no equivalent: refused before).
  const responseFormat = asObject(body.response_format);
  const schema = asObject(responseFormat.json_schema).schema;
  if (responseFormat.type === 'json_schema' && isObject(schema))
    out.output_config = { format: { type: 'json_schema', schema } };

  const effort = asString(body.reasoning_effort);
  if (opts.thinkingBudgetPercentage !== undefined && effort !== undefined && effort !== 'none') {
    const budget = Math.max(1024, Math.floor(maxTokens * opts.thinkingBudgetPercentage));
    out.thinking = { type: 'enabled', budget_tokens: budget };
    // Extended thinking refuses a temperature other than 1 and a narrowed top_p or top_k.
    delete out.temperature;
    delete out.top_p;
    delete out.top_k;
  }
  return out;
}
