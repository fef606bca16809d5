/**
 * Tencent Cloud API 3.0, Hunyuan ChatCompletions (version 2023-09-01): POST / with X-TC-Action,
 * X-TC-Version, X-TC-Timestamp and a TC3-HMAC-SHA256 Authorization (checked against Tencent's
 * "signature v3" when `auth.signingKeys[SecretId]` holds the SecretKey, else for its form), body
 * {Model, Messages: [{Role, Content}], Stream?, Tools?...}.
 *
 * Answer: {Response: {RequestId, Note, Id, Created, Choices: [{Index, Message: {Role, Content},
 * FinishReason}], Usage: {PromptTokens, CompletionTokens, TotalTokens}}}. Stream: SSE `data:` events
 * {Note, Id, Created, Choices: [{Index, Delta: {Role, Content}, FinishReason: ""}], Usage (counts so
 * far)}, closed by an event with FinishReason "stop". With `Tools`, [[tool=name]] answers ToolCalls.
 * Errors come with HTTP 200 as {Response: {Error: {Code, Message}, RequestId}}, for streams too.
 */
import { createHash, createHmac } from 'node:crypto';
import { MockUsage, parseDirectives, replyPieces, textOf, TOOL_ARGUMENTS, usageOf } from './directives';
import {
  CREATED,
  Ctx,
  defaultErrorMessage,
  ErrorWriter,
  Exchange,
  RecordedRequest,
  sseData,
} from './exchange';

export const HUNYUAN_VERSION = '2023-09-01';
const NOTE = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记';

const CODES: Record<number, string> = {
  400: 'InvalidParameter',
  401: 'AuthFailure.SignatureFailure',
  403: 'UnauthorizedOperation',
  404: 'ResourceNotFound',
  429: 'RequestLimitExceeded',
  500: 'InternalError',
};

function fail(ex: Exchange, code: string, message: string, n = 0): void {
  ex.json(200, { Response: { Error: { Code: code, Message: message }, RequestId: `mock-request-${n}` } });
}

export const tencentError: ErrorWriter = (ex, status, message) => {
  fail(
    ex,
    CODES[status] ?? (status >= 500 ? 'InternalError' : 'InvalidParameter'),
    message ?? defaultErrorMessage(status),
  );
};

function header(record: RecordedRequest, name: string): string {
  const value = record.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

const AUTHORIZATION =
  /^TC3-HMAC-SHA256 Credential=([^/\s]+)\/(\d{4}-\d{2}-\d{2})\/([a-z]+)\/tc3_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** The SecretId of a TC3-signed request (the credential `requireKey` is matched against). */
export function tc3Credential(record: RecordedRequest): string | null {
  return AUTHORIZATION.exec(header(record, 'authorization'))?.[1] ?? null;
}

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** Checks action, version and signature; answers Tencent's error and returns false when they do not hold. */
function authorized(ctx: Ctx): boolean {
  const { ex, record, n } = ctx;
  const action = header(record, 'x-tc-action');
  if (action !== 'ChatCompletions') {
    fail(ex, 'InvalidAction', `The action \`${action}\` is not found.`, n);
    return false;
  }
  if (header(record, 'x-tc-version') !== HUNYUAN_VERSION) {
    fail(
      ex,
      'InvalidAction',
      `The action \`${action}\` is not supported by version ${header(record, 'x-tc-version')}.`,
      n,
    );
    return false;
  }
  const auth = AUTHORIZATION.exec(header(record, 'authorization'));
  if (!auth) {
    fail(
      ex,
      'AuthFailure.InvalidAuthorization',
      'The Authorization header does not follow the TC3 standard.',
      n,
    );
    return false;
  }
  const [, secretId, date, service, signedList, signature] = auth;
  const timestamp = Number(header(record, 'x-tc-timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) {
    fail(
      ex,
      'AuthFailure.SignatureExpire',
      'The signature has expired (X-TC-Timestamp is not within 5 minutes).',
      n,
    );
    return false;
  }
  const signed = signedList.split(';');
  if (
    service !== 'hunyuan' ||
    date !== new Date(timestamp * 1000).toISOString().slice(0, 10) ||
    !signed.includes('host')
  ) {
    fail(ex, 'AuthFailure.SignatureFailure', 'The credential scope of the signature is wrong.', n);
    return false;
  }
  const secretKey = ctx.auth.signingKeys[secretId];
  if (secretKey === undefined) return true;
  const canonicalHeaders = signed
    .map((name) => `${name}:${header(record, name).trim().toLowerCase()}\n`)
    .join('');
  const query = new URLSearchParams(record.query).toString();
  const canonicalRequest = [
    record.method,
    record.path,
    query,
    canonicalHeaders,
    signedList,
    sha256Hex(record.rawBody),
  ].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(`TC3${secretKey}`, date), service), 'tc3_request');
  if (createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
    fail(
      ex,
      'AuthFailure.SignatureFailure',
      'The provided credentials could not be validated. Please check your signature is correct.',
      n,
    );
    return false;
  }
  return true;
}

function usageJson(u: MockUsage | null, completion: number): Record<string, number> {
  const prompt = u?.prompt ?? 0;
  return { PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion };
}

function checkTool(tool: unknown): string | null {
  const t = tool as { Type?: unknown; Function?: { Name?: unknown; Parameters?: unknown } } | null;
  if (t?.Type !== 'function') return 'Tool.Type must be function';
  if (typeof t.Function?.Name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(t.Function.Name)) {
    return 'Tool.Function.Name is invalid';
  }
  if (typeof t.Function.Parameters !== 'string') return 'Tool.Function.Parameters must be a JSON string';
  try {
    JSON.parse(t.Function.Parameters);
  } catch {
    return 'Tool.Function.Parameters is not valid JSON';
  }
  return null;
}

/** Tools, ToolChoice (none|auto|custom, custom with a CustomTool), tool messages with a ToolCallId. */
function checkTools(body: Record<string, unknown>): string | null {
  if (body.Tools !== undefined) {
    if (!Array.isArray(body.Tools)) return 'Tools must be a list';
    for (const tool of body.Tools) {
      const error = checkTool(tool);
      if (error) return error;
    }
  }
  if (body.ToolChoice !== undefined) {
    if (!['none', 'auto', 'custom'].includes(body.ToolChoice as string))
      return 'ToolChoice must be none, auto or custom';
    if (body.ToolChoice === 'custom') {
      if (body.CustomTool === undefined) return 'CustomTool is required when ToolChoice is custom';
      const error = checkTool(body.CustomTool);
      if (error) return error;
    }
  }
  for (const m of body.Messages as Array<Record<string, unknown>>) {
    if (m?.Role === 'tool' && (typeof m.ToolCallId !== 'string' || m.ToolCallId === '')) {
      return 'a tool message needs its ToolCallId';
    }
    if (m?.ToolCalls !== undefined && !Array.isArray(m.ToolCalls)) return 'Message.ToolCalls must be a list';
  }
  return null;
}

/** POST / (X-TC-Action: ChatCompletions). */
export async function hunyuanChat(ctx: Ctx): Promise<void> {
  const { ex, body, n } = ctx;
  if (!authorized(ctx)) return;
  if (typeof body.Model !== 'string')
    return fail(ex, 'MissingParameter', 'The request is missing a required parameter `Model`.', n);
  if (!Array.isArray(body.Messages) || body.Messages.length === 0) {
    return fail(ex, 'MissingParameter', 'The request is missing a required parameter `Messages`.', n);
  }
  const toolError = checkTools(body);
  if (toolError) return fail(ex, 'InvalidParameter', toolError, n);
  const user = (body.Messages as Array<{ Role?: unknown; Content?: unknown } | null>).findLast(
    (m) => m?.Role === 'user',
  );
  const d = parseDirectives(textOf(user?.Content));
  if (await ex.gate(d, tencentError)) return;
  const call = d.tool && Array.isArray(body.Tools) ? d.tool : undefined;
  const pieces = call ? [''] : replyPieces(d);
  const usage = usageOf(d, call ? 2 : pieces.length);
  const base = { Note: NOTE, Id: `mock-hunyuan-${n}`, Created: CREATED };
  const toolCalls = call && [
    {
      Id: `call_mock_${n}`,
      Type: 'function',
      Index: 0,
      Function: { Name: call, Arguments: JSON.stringify(TOOL_ARGUMENTS) },
    },
  ];
  const finish = call ? 'tool_calls' : 'stop';

  if (body.Stream !== true) {
    if (!(await ex.beforeAnswer(d))) return;
    const message = {
      Role: 'assistant',
      Content: pieces.join(''),
      ...(toolCalls ? { ToolCalls: toolCalls } : {}),
    };
    return ex.json(200, {
      Response: {
        RequestId: `mock-request-${n}`,
        ...base,
        Choices: [{ Index: 0, Message: message, FinishReason: finish }],
        Usage: usageJson(usage, usage?.completion ?? 0),
      },
    });
  }
  ex.begin('text/event-stream');
  const total = usage?.completion ?? 0;
  const event = (delta: object, finishReason: string, completion: number) =>
    ex.write(
      sseData({
        ...base,
        Choices: [{ Index: 0, Delta: { Role: 'assistant', ...delta }, FinishReason: finishReason }],
        Usage: usageJson(usage, completion),
      }),
    );
  const done = await ex.stream(pieces, d, (p, i) =>
    event(
      toolCalls ? { Content: '', ToolCalls: toolCalls } : { Content: p },
      '',
      Math.floor((total * (i + 1)) / pieces.length),
    ),
  );
  if (!done) return;
  event({ Content: '' }, finish, total);
  ex.end();
}
