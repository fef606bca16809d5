// The streams-RSS benchmark's clients, in their own process (child_process.fork): STREAMS slots, each
// keeping one SSE stream open against TARGET_URL (POST /v1/chat/completions, `stream: true`, bearer
// AUTH) and opening the next one as soon as a stream ends with `data: [DONE]`. The slots start spread
// over RAMP_MS. Plain undici requests, one connection per stream.
//
// IPC: sends {ready} at once; answers {id, cmd: 'stats'} with {open, started, completed, errors,
// events, lastError}; {id, cmd: 'stop'} aborts every stream and answers with the final stats.
import { setMaxListeners } from 'node:events';
import { Agent, request } from 'undici';

const target = process.env.TARGET_URL;
if (!target) throw new Error('TARGET_URL is required');
const streams = Number(process.env.STREAMS ?? 1000);
const rampMs = Number(process.env.RAMP_MS ?? 10_000);
const auth = process.env.AUTH ?? 'sk-bench';
const body = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Stream to the soak benchmark.' }],
  stream: true,
  stream_options: { include_usage: true },
});
const agent = new Agent({ connections: null, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
const abort = new AbortController();
setMaxListeners(streams + 100, abort.signal); // one listener per open stream

let open = 0;
let started = 0;
let completed = 0;
let errors = 0;
let events = 0;
let lastError = null;

async function once() {
  started++;
  open++;
  let tail = '';
  let sawDone = false;
  try {
    const r = await request(`${target}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` },
      body,
      signal: abort.signal,
    });
    if (r.statusCode !== 200) {
      lastError = `status ${r.statusCode}: ${(await r.body.text()).slice(0, 200)}`;
      errors++;
      return false;
    }
    for await (const b of r.body) {
      const parts = (tail + b.toString('utf8')).split('\n\n');
      tail = parts.pop();
      for (const p of parts) {
        events++;
        if (p.trim() === 'data: [DONE]') sawDone = true;
      }
    }
    if (sawDone) {
      completed++;
      return true;
    }
    errors++;
    lastError = `stream ended without [DONE] (last bytes ${JSON.stringify(tail.slice(-120))})`;
    return false;
  } catch (e) {
    if (!abort.signal.aborted) {
      errors++;
      lastError = e.message;
    }
    return false;
  } finally {
    open--;
  }
}

async function slot(i) {
  await new Promise((r) => setTimeout(r, Math.floor((rampMs * i) / streams)));
  while (!abort.signal.aborted) {
    const ok = await once();
    // A failing target must not turn into a busy loop.
    if (!ok && !abort.signal.aborted) await new Promise((r) => setTimeout(r, 200));
  }
}

const stats = () => ({ open, started, completed, errors, events, lastError });
for (let i = 0; i < streams; i++) void slot(i);
process.send?.({ ready: true, port: 0 });
process.on('message', (m) => {
  if (m?.cmd === 'stats') process.send({ id: m.id, ...stats() });
  else if (m?.cmd === 'stop') {
    abort.abort();
    setTimeout(() => process.send({ id: m.id, ...stats() }), 200);
  }
});
process.on('disconnect', () => process.exit(0));
