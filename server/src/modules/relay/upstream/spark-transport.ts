import type { ClientSignal } from '../client-signal';
import { PassThrough, type Readable } from 'node:stream';
import WebSocket from 'ws';
import {
  parseSparkKey,
  sparkAuthUrl,
  sparkDomain,
  sparkFrameIsLast,
  sparkFrameToChunks,
  sparkRequestFrame,
  sparkVersion,
} from '../adapters/spark';
import { RelayError } from '../errors';
import type { AdapterRequest, JsonObject, ProviderAdapter } from '../types';

/** An upstream answer as relay.service consumes it (undici's response satisfies it too). */
export interface UpstreamResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { text(): Promise<string> };
}

/** iFlytek Spark (18) speaks OpenAI chat through relay.service, over the websocket of sparkCall(). */
export const sparkAdapter: ProviderAdapter = {
  name: 'spark',
  format: 'openai',
  modes: ['chat'],
  transport: 'websocket',
  buildRequest: () => ({ method: 'GET', url: '', headers: {} }),
};

/**
 * One Spark exchange: a signed websocket, one request frame, answer frames converted to OpenAI chunks.
 * Streams come back as SSE bytes of those chunks; otherwise the chunks are folded into one
 * chat.completion. Errors before the first frame are retryable upstream failures.
 */
export function sparkCall(
  areq: AdapterRequest,
  signal: ClientSignal,
  nowMs: number,
  timeoutMs: number,
  lookup?: unknown,
): Promise<UpstreamResponse> {
  const { appId, apiKey, apiSecret } = parseSparkKey(areq.channel.key);
  const version = sparkVersion(areq.channel.other);
  const url = sparkAuthUrl(areq.channel.baseUrl, apiKey, apiSecret, version, nowMs);
  const context = { id: `chatcmpl-spark-${nowMs}`, created: Math.floor(nowMs / 1000), model: areq.model };
  const out = new PassThrough();
  let content = '';
  let toolCalls: JsonObject[] | undefined;
  let usage: JsonObject | undefined;
  let finish = 'stop';

  return new Promise<UpstreamResponse>((resolve, reject) => {
    // `lookup`: the channel address guard (the socket connects to the address it checked).
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs || 30_000, ...(lookup ? { lookup } : {}) });
    let started = false;
    const fail = (e: RelayError) => {
      if (!started) reject(e);
      else out.destroy(e);
      ws.terminate();
    };
    const onAbort = () =>
      fail(new RelayError(499, 'relay_upstream_failed', { reason: 'client closed the request' }));
    signal.once('abort', onAbort);
    const respond = (body: PassThrough & { text?: () => Promise<string> }, contentType: string) => {
      started = true;
      resolve({
        statusCode: 200,
        headers: { 'content-type': contentType },
        body: body as UpstreamResponse['body'],
      });
    };
    ws.on('open', () => ws.send(JSON.stringify(sparkRequestFrame(areq.body, appId, sparkDomain(version)))));
    ws.on('message', (data: WebSocket.RawData) => {
      let chunks: JsonObject[];
      let frame: unknown;
      try {
        frame = JSON.parse(rawText(data)) as unknown;
        chunks = sparkFrameToChunks(frame, context);
      } catch (err) {
        return fail(
          err instanceof RelayError
            ? err
            : new RelayError(502, 'relay_upstream_failed', { reason: 'bad frame' }, '', null, true),
        );
      }
      if (areq.stream) {
        if (!started) respond(Object.assign(out, { text: () => Promise.resolve('') }), 'text/event-stream');
        for (const c of chunks) out.write(`data: ${JSON.stringify(c)}\n\n`);
      } else
        for (const c of chunks) {
          if (c.usage) usage = c.usage as JsonObject;
          const choice = Array.isArray(c.choices) ? (c.choices[0] as JsonObject | undefined) : undefined;
          const delta = (choice?.delta ?? {}) as JsonObject;
          if (typeof delta.content === 'string') content += delta.content;
          if (Array.isArray(delta.tool_calls)) toolCalls = delta.tool_calls as JsonObject[];
          if (typeof choice?.finish_reason === 'string') finish = choice.finish_reason;
        }
      if (sparkFrameIsLast(frame)) {
        ws.close();
        if (areq.stream) return void out.end();
        const completion = {
          id: context.id,
          object: 'chat.completion',
          created: context.created,
          model: areq.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: toolCalls ? null : content,
                ...(toolCalls ? { tool_calls: toolCalls } : {}),
              },
              finish_reason: finish,
            },
          ],
          ...(usage ? { usage } : {}),
        };
        const text = JSON.stringify(completion);
        const body = Object.assign(new PassThrough(), { text: () => Promise.resolve(text) });
        body.end(text);
        respond(body, 'application/json');
      }
    });
    ws.on('error', () =>
      fail(new RelayError(502, 'relay_upstream_failed', { reason: 'network error' }, '', null, true)),
    );
    ws.on('close', () => {
      signal.removeListener('abort', onAbort);
      if (!started)
        reject(new RelayError(502, 'relay_upstream_failed', { reason: 'connection closed' }, '', null, true));
      else if (areq.stream && !out.writableEnded) out.destroy(new Error('upstream closed'));
    });
  });
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
