/**
 * A local Suno API server (the Suno-API task service gateways of this family relay) speaking its wire
 * format: `Authorization: Bearer <key>`, `POST /suno/submit/{music,lyrics}` →
 * `{code: "success", message: "", data: "<task id>"}`, `POST /suno/fetch {ids}` and
 * `GET /suno/fetch/{id}` → `{code, message, data}` with task objects
 * `{task_id, action, status, fail_reason, submit_time, start_time, finish_time, data}` (unix seconds).
 *
 * Tasks move one step per fetch (SUBMITTED → IN_PROGRESS → SUCCESS). Directives in the prompt (or
 * gpt_description_prompt):
 *   [[reject]]    refuse with {code: "fail", message}
 *   [[status=N]]  answer HTTP status N
 *   [[fail]]      the task ends FAILURE with a reason
 *   [[hang]]      the task stays IN_PROGRESS
 */
import { randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SunoRecorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface SunoMockTask {
  task_id: string;
  action: 'MUSIC' | 'LYRICS';
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  data: unknown;
  mode: 'normal' | 'fail' | 'hang';
  input: Record<string, unknown>;
}

const has = (text: string, name: string) => text.includes(`[[${name}`);
const now = () => Math.floor(Date.now() / 1000);

export class MockSuno {
  readonly requests: SunoRecorded[] = [];
  readonly tasks = new Map<string, SunoMockTask>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly key: string,
  ) {}

  static async start(key = 'suno-upstream-key'): Promise<MockSuno> {
    let mock: MockSuno | null = null;
    const server = createServer((req, res) => void mock!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    mock = new MockSuno(server, `http://127.0.0.1:${port}`, key);
    return mock;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  last(prefix = '/suno/submit/'): SunoRecorded | undefined {
    return [...this.requests].reverse().find((r) => r.path.startsWith(prefix));
  }

  wire(t: SunoMockTask): Record<string, unknown> {
    const { task_id, action, status, fail_reason, submit_time, start_time, finish_time, data } = t;
    return { task_id, action, status, fail_reason, submit_time, start_time, finish_time, data };
  }

  private advance(t: SunoMockTask): void {
    if (t.status === 'SUCCESS' || t.status === 'FAILURE') return;
    if (t.status === 'SUBMITTED') {
      Object.assign(t, { status: 'IN_PROGRESS', start_time: now() });
      return;
    }
    if (t.mode === 'hang') return;
    if (t.mode === 'fail') {
      Object.assign(t, {
        status: 'FAILURE',
        fail_reason: 'Unable to generate: lyrics flagged by moderation',
        finish_time: now(),
      });
      return;
    }
    const clip = randomUUID();
    t.data =
      t.action === 'MUSIC'
        ? [
            {
              id: clip,
              status: 'complete',
              title: typeof t.input.title === 'string' ? t.input.title : 'Untitled',
              audio_url: `https://cdn1.suno.ai/${clip}.mp3`,
              image_url: `https://cdn2.suno.ai/image_${clip}.jpeg`,
              video_url: `https://cdn1.suno.ai/${clip}.mp4`,
              model_name: 'chirp-v3',
              metadata: { tags: t.input.tags ?? '', prompt: t.input.prompt ?? '', duration: 123.4 },
            },
          ]
        : { id: clip, status: 'complete', title: 'A song about the sea', text: '[Verse]\nWaves roll in...' };
    Object.assign(t, { status: 'SUCCESS', finish_time: now() });
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    if (req.headers.authorization !== `Bearer ${this.key}`)
      return this.json(res, 401, { code: 'unauthorized', message: 'invalid api key', data: null });

    const fetchOne = /^\/suno\/fetch\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && fetchOne) {
      const t = this.tasks.get(fetchOne[1]);
      if (!t) return this.json(res, 200, { code: 'error', message: 'task not found', data: null });
      this.advance(t);
      return this.json(res, 200, { code: 'success', message: '', data: this.wire(t) });
    }
    if (req.method !== 'POST' || !body || typeof body !== 'object')
      return this.json(res, 404, { code: 'error', message: 'not found', data: null });
    if (url.pathname === '/suno/fetch') {
      const ids: unknown[] = Array.isArray(body.ids) ? body.ids : [];
      const out = ids.map((id) => this.tasks.get(String(id))).filter((t): t is SunoMockTask => !!t);
      for (const t of out) this.advance(t);
      return this.json(res, 200, { code: 'success', message: '', data: out.map((t) => this.wire(t)) });
    }
    const submit = /^\/suno\/submit\/(music|lyrics)$/i.exec(url.pathname);
    if (!submit) return this.json(res, 404, { code: 'error', message: 'not found', data: null });
    const text = `${body.prompt ?? ''} ${body.gpt_description_prompt ?? ''}`;
    const status = /\[\[status=(\d+)\]\]/.exec(text);
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'text/plain' });
      return void res.end('upstream exploded');
    }
    if (has(text, 'reject'))
      return this.json(res, 200, { code: 'fail', message: 'prompt rejected by content policy', data: null });
    const action = submit[1].toUpperCase() as 'MUSIC' | 'LYRICS';
    if (action === 'MUSIC' && typeof body.mv !== 'string')
      return this.json(res, 200, { code: 'fail', message: 'mv is required', data: null });
    const task: SunoMockTask = {
      task_id: randomUUID(),
      action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: now(),
      start_time: 0,
      finish_time: 0,
      data: null,
      mode: has(text, 'fail') ? 'fail' : has(text, 'hang') ? 'hang' : 'normal',
      input: body,
    };
    this.tasks.set(task.task_id, task);
    return this.json(res, 200, { code: 'success', message: '', data: task.task_id });
  }
}
