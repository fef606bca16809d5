// A slow OpenAI-compatible upstream for the streams-RSS benchmark, run in its own process
// (child_process.fork) so the gateway's RSS is its own. POST /v1/chat/completions with `stream: true`
// answers an SSE stream that lasts: a role chunk at once, then one content chunk every CHUNK_MS
// (default 1000) until STREAM_CHUNKS (default 60) have gone, then a finish chunk, a usage chunk (when
// stream_options.include_usage is set) and `data: [DONE]`. Without `stream` it answers a fixed
// chat.completion at once (the benchmark's first check).
//
// IPC: sends {ready, port} once listening; answers {id, cmd: 'stats'} with {open, started, finished}.
import { createServer } from 'node:http';

const CHUNK_MS = Number(process.env.CHUNK_MS ?? 1000);
const STREAM_CHUNKS = Number(process.env.STREAM_CHUNKS ?? 60);
const MODEL = 'gpt-4o-mini';
const CREATED = 1_700_000_000;
const usage = (n) => ({ prompt_tokens: 20, completion_tokens: n, total_tokens: 20 + n });
const frame = (delta, finish = null, extra = {}) =>
  Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-soak', object: 'chat.completion.chunk', created: CREATED, model: MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`,
  );
const roleChunk = frame({ role: 'assistant', content: '' });
const contentChunk = frame({ content: ' tick' });
const finishChunk = frame({}, 'stop');
const usageChunk = Buffer.from(
  `data: ${JSON.stringify({ id: 'chatcmpl-soak', object: 'chat.completion.chunk', created: CREATED, model: MODEL, choices: [], usage: usage(STREAM_CHUNKS) })}\n\n`,
);
const done = Buffer.from('data: [DONE]\n\n');
const completion = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-soak',
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    choices: [
      { index: 0, message: { role: 'assistant', content: 'tick' }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: usage(1),
  }),
);

let open = 0;
let started = 0;
let finished = 0;

function stream(res, withUsage) {
  open++;
  started++;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(roleChunk);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < STREAM_CHUNKS) {
      res.write(contentChunk);
      sent++;
      return;
    }
    clearInterval(timer);
    res.write(finishChunk);
    if (withUsage) res.write(usageChunk);
    res.end(done);
    finished++;
  }, CHUNK_MS);
  res.once('close', () => {
    clearInterval(timer);
    open--;
  });
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  const parts = [];
  req.on('data', (b) => parts.push(b));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"invalid JSON","type":"invalid_request_error"}}');
      return;
    }
    if (body.stream === true) stream(res, body.stream_options?.include_usage === true);
    else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 0;
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => process.send?.({ ready: true, port: server.address().port }));
process.on('message', (m) => {
  if (m?.cmd === 'stats') process.send({ id: m.id, open, started, finished });
});
process.on('disconnect', () => process.exit(0));
