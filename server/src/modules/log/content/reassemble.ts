import { createParser } from 'eventsource-parser';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON events of an SSE text (comments, pings and `[DONE]` skipped; lines that are not JSON too). */
function events(sse: string): Json[] {
  const out: Json[] = [];
  const parser = createParser({
    onEvent: (e) => {
      if (e.data === '[DONE]') return;
      try {
        const v: unknown = JSON.parse(e.data);
        if (isObject(v)) out.push(v);
      } catch {
        // not JSON: left out of the reassembly
      }
    },
  });
  parser.feed(sse);
  parser.feed('\n\n');
  return out;
}

interface ChatChoice {
  index: number;
  content: string;
  reasoning: string;
  text: string;
  toolCalls: Map<number, { id?: string; type?: string; name: string; arguments: string }>;
  finish: unknown;
}

/** OpenAI chat (and legacy completions) chunks → one chat.completion / text_completion object. */
function openai(list: Json[]): Json | null {
  const choices = new Map<number, ChatChoice>();
  let head: Json | null = null;
  let usage: unknown;
  let completions = false;
  for (const ev of list) {
    if (!Array.isArray(ev.choices)) continue;
    head ??= ev;
    if (ev.usage) usage = ev.usage;
    for (const raw of ev.choices as unknown[]) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === 'number' ? raw.index : 0;
      let c = choices.get(index);
      if (!c) {
        c = { index, content: '', reasoning: '', text: '', toolCalls: new Map(), finish: null };
        choices.set(index, c);
      }
      if (raw.finish_reason) c.finish = raw.finish_reason;
      if (typeof raw.text === 'string') {
        completions = true;
        c.text += raw.text;
      }
      const d = raw.delta;
      if (!isObject(d)) continue;
      if (typeof d.content === 'string') c.content += d.content;
      if (typeof d.reasoning_content === 'string') c.reasoning += d.reasoning_content;
      else if (typeof d.reasoning === 'string') c.reasoning += d.reasoning;
      if (Array.isArray(d.tool_calls))
        for (const t of d.tool_calls as unknown[]) {
          if (!isObject(t)) continue;
          const ti = typeof t.index === 'number' ? t.index : c.toolCalls.size;
          const call = c.toolCalls.get(ti) ?? { name: '', arguments: '' };
          if (typeof t.id === 'string') call.id = t.id;
          if (typeof t.type === 'string') call.type = t.type;
          const f = isObject(t.function) ? t.function : {};
          if (typeof f.name === 'string') call.name += f.name;
          if (typeof f.arguments === 'string') call.arguments += f.arguments;
          c.toolCalls.set(ti, call);
        }
    }
  }
  if (!head) return null;
  const out: Json = {
    id: head.id,
    object: completions ? 'text_completion' : 'chat.completion',
    created: head.created,
    model: head.model,
    choices: [...choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => {
        if (completions) return { index: c.index, text: c.text, finish_reason: c.finish };
        const message: Json = { role: 'assistant', content: c.content };
        if (c.reasoning) message.reasoning_content = c.reasoning;
        if (c.toolCalls.size)
          message.tool_calls = [...c.toolCalls.values()].map((t) => ({
            id: t.id,
            type: t.type ?? 'function',
            function: { name: t.name, arguments: t.arguments },
          }));
        return { index: c.index, message, finish_reason: c.finish };
      }),
  };
  if (usage !== undefined) out.usage = usage;
  return out;
}

/** Anthropic Messages events → one message object. */
function anthropic(list: Json[]): Json | null {
  let message: Json | null = null;
  const blocks: Json[] = [];
  const partialJson = new Map<number, string>();
  for (const ev of list) {
    if (ev.type === 'message_start' && isObject(ev.message)) message = { ...ev.message };
    else if (ev.type === 'content_block_start' && typeof ev.index === 'number' && isObject(ev.content_block))
      blocks[ev.index] = { ...ev.content_block };
    else if (ev.type === 'content_block_delta' && typeof ev.index === 'number' && isObject(ev.delta)) {
      const b = (blocks[ev.index] ??= { type: 'text', text: '' });
      const d = ev.delta;
      if (d.type === 'text_delta' && typeof d.text === 'string')
        b.text = (typeof b.text === 'string' ? b.text : '') + d.text;
      else if (d.type === 'thinking_delta' && typeof d.thinking === 'string')
        b.thinking = (typeof b.thinking === 'string' ? b.thinking : '') + d.thinking;
      else if (d.type === 'signature_delta' && typeof d.signature === 'string') b.signature = d.signature;
      else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string')
        partialJson.set(ev.index, (partialJson.get(ev.index) ?? '') + d.partial_json);
    } else if (ev.type === 'message_delta' && message) {
      if (isObject(ev.delta)) Object.assign(message, ev.delta);
      if (isObject(ev.usage))
        message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...ev.usage };
    }
  }
  if (!message) return null;
  for (const [i, text] of partialJson) {
    const b = blocks[i];
    if (!b) continue;
    try {
      b.input = JSON.parse(text);
    } catch {
      b.input = text;
    }
  }
  message.content = blocks.filter(Boolean);
  return message;
}

/** Gemini GenerateContentResponse chunks → one response (texts joined, other parts kept). */
function gemini(list: Json[]): Json | null {
  const candidates = new Map<number, { parts: Json[]; finish: unknown }>();
  let last: Json | null = null;
  for (const ev of list) {
    if (!Array.isArray(ev.candidates) && !ev.usageMetadata) continue;
    last = ev;
    for (const raw of (ev.candidates as unknown[]) ?? []) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === 'number' ? raw.index : 0;
      const c = candidates.get(index) ?? { parts: [], finish: undefined };
      if (raw.finishReason) c.finish = raw.finishReason;
      const parts =
        isObject(raw.content) && Array.isArray(raw.content.parts) ? (raw.content.parts as unknown[]) : [];
      for (const p of parts) {
        if (!isObject(p)) continue;
        const prev = c.parts.at(-1);
        if (
          typeof p.text === 'string' &&
          prev &&
          typeof prev.text === 'string' &&
          !!prev.thought === !!p.thought
        )
          prev.text += p.text;
        else c.parts.push({ ...p });
      }
      candidates.set(index, c);
    }
  }
  if (!last) return null;
  const out: Json = {
    candidates: [...candidates.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => ({ index, content: { role: 'model', parts: c.parts }, finishReason: c.finish })),
  };
  if (last.usageMetadata) out.usageMetadata = last.usageMetadata;
  const version = list.findLast((ev) => ev.modelVersion)?.modelVersion;
  if (version) out.modelVersion = version;
  return out;
}

/** Responses API events → the final response object of `response.completed` (or the last one seen). */
function responses(list: Json[]): Json | null {
  let response: Json | null = null;
  for (const ev of list)
    if (typeof ev.type === 'string' && ev.type.startsWith('response.') && isObject(ev.response))
      response = ev.response;
  return response;
}

/**
 * A streamed answer reassembled into the object a non-stream call would have answered, from the SSE
 * the caller received (so in the caller's format); null when the stream is not one of the known
 * formats (the raw SSE is then stored instead).
 */
export function reassemble(sse: string, format: string): Json | null {
  const list = events(sse);
  if (!list.length) return null;
  switch (format) {
    case 'anthropic':
      return anthropic(list);
    case 'gemini':
      return gemini(list);
    case 'responses':
      return responses(list);
    default:
      return openai(list);
  }
}
