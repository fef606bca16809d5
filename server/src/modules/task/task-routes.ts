import { Injectable, OnModuleInit } from '@nestjs/common';
import { RELAY_BODY_LIMIT, RelayError, toRelayError } from '../relay';
import { keyFromRequest } from '../../common/api-key';
import type { InboundRequest } from '../relay';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Lang, pickLang } from '../../common/i18n/messages';
import { MidjourneyRelay, MjAnswer } from './midjourney/mj-relay.service';
import { Json, MJ_SUBMIT_ROUTES } from './midjourney/mj-wire';
import { SunoRelay } from './suno/suno-relay.service';
import { SUNO_ROUTES, SunoRoute } from './suno/suno-wire';

type Answer = MjAnswer;
type Format = 'mj' | 'suno';

/**
 * The task relay routes (`/mj/*`, `/suno/*`), mounted as a Fastify plugin beside the model relay's,
 * outside Nest's pipeline: answers are in the wire format of the upstream family (Midjourney-proxy
 * `{code, description, ...}`, Suno API `{code, message, data}`), bodies are read raw (64 MB limit).
 */
@Injectable()
export class TaskRoutes implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly mj: MidjourneyRelay,
    private readonly suno: SunoRelay,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    // Not awaited: awaiting would boot Fastify's plugin queue now, registering Nest's routes before
    // Nest has set its error handler (their body-parse errors would then escape the envelope).
    // Queued, the plugin loads with the rest when the server gets ready.
    void fastify.register(this.plugin);
  }

  readonly plugin = async (f: FastifyInstance): Promise<void> => {
    f.removeAllContentTypeParsers();
    f.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    // Errors raised before a handler runs (body too large, aborted upload).
    f.setErrorHandler((err: FastifyError, req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      const reason = status === 413 ? 'body too large' : err.message;
      const e = status === 500 ? toRelayError(err) : new RelayError(status, 'task_bad_body', { reason });
      this.error(reply, req, req.url.startsWith('/suno') ? 'suno' : 'mj', e);
    });

    for (const route of MJ_SUBMIT_ROUTES)
      f.post(`/mj/submit/${route}`, (req, reply) =>
        this.serve(req, reply, 'mj', () => this.mj.submit(this.inbound(req), route, () => this.body(req))),
      );
    f.get('/mj/task/:id/fetch', (req, reply) =>
      this.serve(req, reply, 'mj', () => this.mj.fetch(this.inbound(req), (req.params as { id: string }).id)),
    );
    f.post('/mj/task/list-by-condition', (req, reply) =>
      this.serve(req, reply, 'mj', () => this.mj.listByCondition(this.inbound(req), () => this.body(req))),
    );
    f.post('/mj/notify', (req, reply) =>
      this.serve(req, reply, 'mj', () =>
        this.mj.notify(req.query as Record<string, unknown>, this.body(req)),
      ),
    );
    f.get('/mj/image/:id', (req, reply) => this.image(req, reply));

    f.post('/suno/submit/:action', (req, reply) =>
      this.serve(req, reply, 'suno', () => {
        const action = (req.params as { action: string }).action.toLowerCase();
        if (!(action in SUNO_ROUTES))
          throw new RelayError(
            404,
            'task_bad_body',
            { reason: `unknown action ${action.slice(0, 20)}` },
            '',
            'invalid_action',
          );
        return this.suno.submit(this.inbound(req), action as SunoRoute, () => this.body(req));
      }),
    );
    f.post('/suno/fetch', (req, reply) =>
      this.serve(req, reply, 'suno', () => this.suno.fetchMany(this.inbound(req), () => this.body(req))),
    );
    f.get('/suno/fetch/:id', (req, reply) =>
      this.serve(req, reply, 'suno', () =>
        this.suno.fetchOne(this.inbound(req), (req.params as { id: string }).id),
      ),
    );
  };

  private lang(req: FastifyRequest): Lang {
    return req.lang ?? pickLang(req.headers['accept-language']);
  }

  private inbound(req: FastifyRequest): InboundRequest {
    return {
      format: 'openai',
      mode: 'images',
      body: null,
      raw: Buffer.isBuffer(req.body) ? req.body : null,
      contentType: String(req.headers['content-type'] ?? ''),
      pathModel: null,
      pathStream: false,
      key: keyFromRequest({ headers: req.headers }),
      ip: req.ip,
      requestId: String(req.id),
      lang: this.lang(req),
      userAgent: String(req.headers['user-agent'] ?? ''),
    };
  }

  /** The JSON object of a request body; anything else is a 400. */
  private body(req: FastifyRequest): Json {
    const raw = Buffer.isBuffer(req.body) ? req.body : null;
    if (!raw?.length)
      throw new RelayError(400, 'task_bad_body', { reason: 'empty body' }, '', 'invalid_request');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new RelayError(400, 'task_bad_body', { reason: 'not valid JSON' }, '', 'invalid_request');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new RelayError(400, 'task_bad_body', { reason: 'must be a JSON object' }, '', 'invalid_request');
    return parsed as Json;
  }

  private async serve(
    req: FastifyRequest,
    reply: FastifyReply,
    format: Format,
    run: () => Promise<Answer>,
  ): Promise<void> {
    try {
      const a = await run();
      const text = a.text ?? JSON.stringify(a.json);
      void reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(text);
    } catch (err) {
      this.error(reply, req, format, toRelayError(err));
    }
  }

  /** An error in the family's format: Midjourney `{code, description, type, result}`, Suno `{code, message, data}`. */
  private error(reply: FastifyReply, req: FastifyRequest, format: Format, e: RelayError): void {
    const message = e.messageIn(this.lang(req));
    const body =
      format === 'mj'
        ? {
            code: e.key === 'relay_sensitive' ? 24 : 4,
            description: message,
            type: e.status >= 500 ? 'upstream_error' : 'request_error',
            result: null,
          }
        : { code: e.code ?? (e.status >= 500 ? 'upstream_error' : 'invalid_request'), message, data: null };
    if (e.retryAfter !== null) void reply.header('retry-after', String(e.retryAfter));
    void reply
      .code(e.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
  }

  private async image(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      const img = await this.mj.image((req.params as { id: string }).id);
      void reply
        .code(200)
        .header('content-type', img.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', img.final ? 'public, max-age=86400' : 'no-store')
        .send(img.body);
    } catch (err) {
      this.error(reply, req, 'mj', toRelayError(err));
    }
  }
}
