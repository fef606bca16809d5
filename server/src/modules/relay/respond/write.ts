import type { ServerResponse } from 'node:http';
import { errorBody, RelayError } from '../errors';
import type { InboundRequest } from '../relay-context';

/** A JSON answer (the body already serialised). */
export function writeText(res: ServerResponse, status: number, text: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  writeText(res, status, JSON.stringify(body));
}

/** A relay error in the caller's wire format; once an answer has begun, the response is only ended. */
export function writeError(
  res: ServerResponse,
  req: Pick<InboundRequest, 'format' | 'lang'>,
  e: RelayError,
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const status = e.status === 499 ? 400 : e.status;
  if (e.retryAfter !== null) res.setHeader('retry-after', String(e.retryAfter));
  writeJson(
    res,
    status,
    errorBody(req.format === 'responses' ? 'openai' : req.format, status, e.messageIn(req.lang), e.code),
  );
}

export function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
