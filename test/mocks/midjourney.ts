/**
 * A local Midjourney-proxy (novicezk/midjourney-proxy and its "plus" variant) speaking the proxy's
 * wire format: `mj-api-secret` authentication, `/mj/submit/*` answering `{code, description, result,
 * properties}` (1 submitted, 21 exists / modal, 22 queued, 3 no account instance, 4 validation error,
 * 23 queue full, 24 banned prompt), task objects from `/mj/task/{id}/fetch` and
 * `/mj/task/list-by-condition`, callbacks POSTed to a task's `notifyHook`, and result images.
 *
 * Tasks move one step per time they are listed (SUBMITTED → IN_PROGRESS 50% → SUCCESS 100%), so a
 * poller drives them. Directives in the prompt choose other behaviour:
 *   [[code=N]]    refuse the submission with code N
 *   [[status=N]]  answer HTTP status N (no JSON)
 *   [[queued]]    code 22 (queued), then as usual
 *   [[exists]]    code 21 with a finished result in properties
 *   [[fail]]      the task ends FAILURE with a failure reason
 *   [[hang]]      the task stays IN_PROGRESS (until complete() or fail())
 *   [[html]]      the result image is served as text/html
 *   [[noid]]      code 1 without a task id
 */
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1x1 PNG. */
export const MJ_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface MjRecorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface MjMockTask {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  status: string;
  progress: string;
  failReason: string;
  properties: Record<string, unknown>;
  buttons: Array<Record<string, unknown>>;
  /** Behaviour of this task (not part of the wire object). */
  mode: 'normal' | 'fail' | 'hang' | 'modal';
  html: boolean;
  notifyHook: string | null;
}

const directive = (prompt: string, name: string): string | null => {
  const m = new RegExp(`\\[\\[${name}(?:=([^\\]]*))?\\]\\]`).exec(prompt);
  return m ? (m[1] ?? '') : null;
};

const WIRE_KEYS = [
  'id',
  'action',
  'prompt',
  'promptEn',
  'description',
  'state',
  'submitTime',
  'startTime',
  'finishTime',
  'imageUrl',
  'status',
  'progress',
  'failReason',
  'properties',
  'buttons',
] as const;

export class MockMidjourney {
  readonly requests: MjRecorded[] = [];
  readonly tasks = new Map<string, MjMockTask>();
  /** Callbacks the mock delivered: [url, status]. */
  readonly callbacks: Array<[string, number]> = [];
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly secret: string,
  ) {}

  static async start(secret = 'mj-upstream-secret'): Promise<MockMidjourney> {
    let mock: MockMidjourney | null = null;
    const server = createServer((req, res) => void mock!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    mock = new MockMidjourney(server, `http://127.0.0.1:${port}`, secret);
    return mock;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The last request to a path starting with `prefix`. */
  last(prefix = '/mj/submit/'): MjRecorded | undefined {
    return [...this.requests].reverse().find((r) => r.path.startsWith(prefix));
  }

  wire(t: MjMockTask): Record<string, unknown> {
    return Object.fromEntries(WIRE_KEYS.map((k) => [k, t[k]]));
  }

  /** Finishes a task successfully and sends its callback (when it has a notifyHook). */
  async complete(id: string): Promise<void> {
    const t = this.tasks.get(id)!;
    this.succeed(t);
    await this.callback(t);
  }

  /** Fails a task and sends its callback. */
  async fail(id: string, reason = 'Banned prompt detected by the Discord bot'): Promise<void> {
    const t = this.tasks.get(id)!;
    Object.assign(t, { status: 'FAILURE', failReason: reason, finishTime: Date.now() });
    await this.callback(t);
  }

  private succeed(t: MjMockTask): void {
    const now = Date.now();
    Object.assign(t, {
      status: 'SUCCESS',
      progress: '100%',
      startTime: t.startTime || now,
      finishTime: now,
      imageUrl: `${this.url}/attachments/${t.id}.png`,
      promptEn: t.prompt.replace(/\[\[[^\]]*\]\]/g, '').trim(),
      buttons: [1, 2, 3, 4].map((i) => ({
        customId: `MJ::JOB::upsample::${i}::${t.id}`,
        emoji: '',
        label: `U${i}`,
        type: 2,
        style: 2,
      })),
    });
  }

  private async callback(t: MjMockTask): Promise<void> {
    if (!t.notifyHook) return;
    const res = await fetch(t.notifyHook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.wire(t)),
    });
    this.callbacks.push([t.notifyHook, res.status]);
  }

  /** One step forward, as a real task moves between two looks at it. */
  private advance(t: MjMockTask): void {
    if (t.status === 'SUCCESS' || t.status === 'FAILURE' || t.mode === 'modal') return;
    if (t.status === 'SUBMITTED') {
      Object.assign(t, { status: 'IN_PROGRESS', progress: '50%', startTime: Date.now() });
      return;
    }
    if (t.mode === 'hang') return;
    if (t.mode === 'fail')
      Object.assign(t, { status: 'FAILURE', failReason: 'Job action restricted', finishTime: Date.now() });
    else this.succeed(t);
  }

  private newTask(action: string, prompt: string, body: Record<string, unknown>): MjMockTask {
    this.seq += 1;
    const id = `17${String(Date.now()).slice(-9)}${String(this.seq).padStart(4, '0')}`;
    const t: MjMockTask = {
      id,
      action,
      prompt,
      promptEn: '',
      description: `/${action.toLowerCase()} ${prompt}`.trim(),
      state: typeof body.state === 'string' ? body.state : '',
      submitTime: Date.now(),
      startTime: 0,
      finishTime: 0,
      imageUrl: '',
      status: 'SUBMITTED',
      progress: '0%',
      failReason: '',
      // The proxy keeps the task's callback address among its properties, as midjourney-proxy does.
      properties: {
        finalPrompt: prompt,
        discordInstanceId: '1118138338562560102',
        notifyHook: typeof body.notifyHook === 'string' ? body.notifyHook : null,
      },
      buttons: [],
      mode:
        directive(prompt, 'fail') !== null ? 'fail' : directive(prompt, 'hang') !== null ? 'hang' : 'normal',
      html: directive(prompt, 'html') !== null,
      notifyHook: typeof body.notifyHook === 'string' ? body.notifyHook : null,
    };
    this.tasks.set(id, t);
    return t;
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

    // Result images are public (Discord CDN-like).
    const image = /^\/attachments\/(\w+)\.png$/.exec(url.pathname);
    if (image && req.method === 'GET') {
      const t = this.tasks.get(image[1]);
      if (!t) return this.json(res, 404, { message: 'Unknown attachment' });
      if (t.html) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<script>alert(1)</script>');
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': MJ_PNG.length });
      return void res.end(MJ_PNG);
    }

    if (req.headers['mj-api-secret'] !== this.secret) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('Unauthorized');
    }
    if (req.method === 'GET') {
      const fetchOne = /^\/mj\/task\/([^/]+)\/fetch$/.exec(url.pathname);
      if (fetchOne) {
        const t = this.tasks.get(fetchOne[1]);
        if (t) this.advance(t);
        return this.json(res, 200, t ? this.wire(t) : null);
      }
      return this.json(res, 404, { code: 4, description: 'not found' });
    }
    if (url.pathname === '/mj/task/list-by-condition') {
      const ids: unknown[] = Array.isArray(body?.ids) ? body.ids : [];
      const out = ids.map((id) => this.tasks.get(String(id))).filter((t): t is MjMockTask => !!t);
      for (const t of out) this.advance(t);
      return this.json(
        res,
        200,
        out.map((t) => this.wire(t)),
      );
    }
    const submit = /^\/mj\/submit\/([\w-]+)$/.exec(url.pathname);
    if (!submit || !body || typeof body !== 'object')
      return this.json(res, 404, { code: 4, description: 'not found' });
    return this.submit(res, submit[1], body);
  }

  private submit(res: ServerResponse, route: string, body: Record<string, unknown>): void {
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const status = directive(prompt, 'status');
    if (status) {
      res.writeHead(Number(status), { 'content-type': 'text/plain' });
      return void res.end('upstream exploded');
    }
    const code = directive(prompt, 'code');
    if (code) {
      const descriptions: Record<string, string> = {
        '3': 'No available account instance',
        '4': 'prompt is invalid',
        '23': 'Queue is full, please try again later',
        '24': 'May contain sensitive words',
      };
      return this.json(res, 200, {
        code: Number(code),
        description: descriptions[code] ?? 'refused',
        result: null,
        properties: code === '24' ? { promptEn: prompt, bannedWord: 'nude' } : {},
      });
    }
    if (directive(prompt, 'noid') !== null)
      return this.json(res, 200, { code: 1, description: 'Submit success', result: null });

    let action: string;
    let taskPrompt = prompt;
    const origin = typeof body.taskId === 'string' ? this.tasks.get(body.taskId) : undefined;
    switch (route) {
      case 'imagine':
        if (!prompt)
          return this.json(res, 200, { code: 4, description: 'prompt cannot be empty', result: null });
        action = 'IMAGINE';
        break;
      case 'describe':
        action = 'DESCRIBE';
        break;
      case 'blend':
        action = 'BLEND';
        break;
      case 'shorten':
        action = 'SHORTEN';
        break;
      case 'upload-discord-images':
        return this.json(res, 200, {
          code: 1,
          description: 'success',
          result: (body.base64Array as unknown[]).map((_, i) => `${this.url}/attachments/upload${i}.png`),
        });
      case 'change':
      case 'action':
      case 'modal':
        if (!origin)
          return this.json(res, 200, {
            code: 4,
            description: 'The related task does not exist or the status is wrong',
            result: null,
          });
        taskPrompt = origin.prompt;
        action = route === 'change' ? String(body.action) : route === 'modal' ? 'MODAL' : 'ACTION';
        break;
      case 'simple-change': {
        const [id, op] = (typeof body.content === 'string' ? body.content : '').split(' ');
        const o = this.tasks.get(id);
        if (!o)
          return this.json(res, 200, {
            code: 4,
            description: 'The related task does not exist',
            result: null,
          });
        taskPrompt = o.prompt;
        action = op.startsWith('U') ? 'UPSCALE' : op.startsWith('V') ? 'VARIATION' : 'REROLL';
        break;
      }
      default:
        return this.json(res, 404, { code: 4, description: 'unknown route' });
    }
    const t = this.newTask(action, taskPrompt, body);
    // Inpaint / CustomZoom buttons open a modal: code 21, the task waits in MODAL.
    if (
      route === 'action' &&
      /::(Inpaint|CustomZoom)::/.test(typeof body.customId === 'string' ? body.customId : '')
    ) {
      Object.assign(t, { status: 'MODAL', mode: 'modal' });
      return this.json(res, 200, {
        code: 21,
        description: 'Waiting for window confirm',
        result: t.id,
        properties: { finalPrompt: t.prompt, remix: true },
      });
    }
    if (directive(prompt, 'exists') !== null) {
      this.succeed(t);
      return this.json(res, 200, {
        code: 21,
        description: 'Task already exists',
        result: t.id,
        properties: { status: 'SUCCESS', imageUrl: t.imageUrl },
      });
    }
    if (directive(prompt, 'queued') !== null)
      return this.json(res, 200, {
        code: 22,
        description: 'In queue, there are 1 tasks ahead',
        result: t.id,
        properties: { numberOfQueues: 1, discordInstanceId: '1118138338562560102' },
      });
    return this.json(res, 200, {
      code: 1,
      description: 'Submit success',
      result: t.id,
      properties: { discordInstanceId: '1118138338562560102' },
    });
  }
}
