// A tiny OpenAI-compatible upstream for the relay benchmark, run in its own process (child_process.fork)
// so it does not share an event loop with the load generator.
//
// POST /v1/chat/completions answers a fixed chat.completion with usage, or with `stream: true` a fixed
// SSE stream: a role chunk, CONTENT.length content chunks, a finish chunk, a usage chunk when
// stream_options.include_usage is set, then `data: [DONE]`. Every chunk is a separate write.
//
// IPC: sends {ready, port} once listening; answers {id, cmd: 'stats'} with request counts per
// Authorization header (so the benchmark can tell the gateway's upstream calls from the others), and
// {id, cmd: 'reset'} by zeroing them.
import { createServer } from 'node:http';

export const MODEL = 'gpt-4o-mini';
export const USAGE = { prompt_tokens: 40, completion_tokens: 40, total_tokens: 80 };
export const CONTENT = ['Hello', '!', ' This', ' is', ' a', ' fixed', ' benchmark', ' answer', '.'];
const CREATED = 1_700_000_000;

const completion = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    system_fingerprint: 'fp_bench',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: CONTENT.join(''), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: USAGE,
  }),
);

const chunk = (delta, finish = null, extra = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  })}\n\n`;

const streamChunks = [
  chunk({ role: 'assistant', content: '' }),
  ...CONTENT.map((c) => chunk({ content: c })),
  chunk({}, 'stop'),
].map((s) => Buffer.from(s));
const usageChunk = Buffer.from(
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model: MODEL, system_fingerprint: 'fp_bench', choices: [], usage: USAGE })}\n\n`,
);
const done = Buffer.from('data: [DONE]\n\n');

const counts = new Map();

function serve(req, res) {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  const auth = String(req.headers.authorization ?? '');
  counts.set(auth, (counts.get(auth) ?? 0) + 1);
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
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const c of streamChunks) res.write(c);
      if (body.stream_options?.include_usage === true) res.write(usageChunk);
      res.end(done);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length });
      res.end(completion);
    }
  });
}

if (process.send) {
  const server = createServer(serve);
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port }));
  process.on('message', (m) => {
    if (m?.cmd === 'stats') process.send({ id: m.id, counts: Object.fromEntries(counts) });
    else if (m?.cmd === 'reset') {
      counts.clear();
      process.send({ id: m.id, ok: true });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
