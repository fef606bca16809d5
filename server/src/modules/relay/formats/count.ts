/**
 * Token counting with the upstream's own endpoint, for a channel that speaks the caller's format:
 * Anthropic `POST /v1/messages/count_tokens` and Gemini `:countTokens`, built from the call the
 * relay planned for the same request (same URL root, same credentials, same headers).
 */
import type { JsonObject, UpstreamCall, WireFormat } from '../types';
import { asObject, num, parseJson } from './json';

/** What Anthropic's count endpoint accepts of a Messages request. */
const ANTHROPIC_COUNTED = [
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'mcp_servers',
  'context_management',
];
/** What Gemini's generateContentRequest may hold besides contents. */
const GEMINI_COUNTED = ['systemInstruction', 'tools', 'toolConfig'];

/** The counting call for a planned Messages / generateContent call of the same format, or null. */
export function countCall(format: WireFormat, call: UpstreamCall): UpstreamCall | null {
  const raw =
    typeof call.body === 'string' ? call.body : call.body ? Buffer.from(call.body).toString('utf8') : '';
  const body = asObject(parseJson(raw));
  const out: JsonObject = {};
  if (format === 'anthropic') {
    if (!/\/messages$/.test(call.url)) return null;
    out.model = body.model;
    for (const k of ANTHROPIC_COUNTED) if (body[k] !== undefined) out[k] = body[k];
    return {
      method: 'POST',
      url: `${call.url}/count_tokens`,
      headers: call.headers,
      body: JSON.stringify(out),
    };
  }
  if (format === 'gemini') {
    const m = /^(.*\/models\/([^/:?]+)):(?:generateContent|streamGenerateContent)(?:\?alt=sse)?$/.exec(
      call.url,
    );
    if (!m) return null;
    const request: JsonObject = {
      model: `models/${decodeURIComponent(m[2])}`,
      contents: body.contents ?? [],
    };
    for (const k of GEMINI_COUNTED) if (body[k] !== undefined) request[k] = body[k];
    return {
      method: 'POST',
      url: `${m[1]}:countTokens`,
      headers: call.headers,
      body: JSON.stringify({ generateContentRequest: request }),
    };
  }
  return null;
}

/** The count in an answer of the counting endpoint (null when it holds none). */
export function countOf(format: WireFormat, answer: unknown): number | null {
  const a = asObject(answer);
  const n = format === 'anthropic' ? num(a.input_tokens) : num(a.totalTokens);
  return n !== undefined && n >= 0 ? Math.floor(n) : null;
}
