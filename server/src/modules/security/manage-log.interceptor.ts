import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, Observable, switchMap } from 'rxjs';
import type { MessageKey } from '../../common/i18n/messages';
import { LogType } from '../../database/entities';
import { AUDIT_ACTIONS } from './audit-actions';
import { AuditCapture, AuditService } from './audit.service';
import { LogService } from '../log';

import { asObject as obj, type UnknownObject as Raw } from '../../common/json';

interface Call {
  body: Raw;
  params: Raw;
  query: Raw;
  /** What the handler returned. */
  result: unknown;
}

const clip = (s: unknown, max = 64) => {
  const t = typeof s === 'string' ? s : '';
  return [...t].length > max ? [...t].slice(0, max).join('') + '…' : t;
};
const idList = (ids: unknown[]) =>
  ids.length > 20 ? `#${ids.slice(0, 20).join(', #')} … (${ids.length})` : `#${ids.join(', #')}`;

/** Fields of a channel edit named in its log (values are left out: keys are secrets). */
function changedFields(body: Raw): string {
  return Object.keys(body)
    .filter((k) => k !== 'id' && !(k === 'key' && !body.key))
    .join(', ');
}

type Described = { key: MessageKey; params: Record<string, string | number> } | null;

/**
 * Channel administration writes a management log (type 3) for the admin who acted, after the change
 * succeeded. Keyed by controller class and handler; a handler not listed writes nothing.
 */
const CHANNEL_ACTIONS: Record<string, (c: Call) => Described> = {
  'ChannelController.create': ({ body, result }) => {
    const ids = Array.isArray(obj(result).ids) ? (obj(result).ids as unknown[]) : [obj(result).id];
    return { key: 'log_text_channel_created', params: { ids: idList(ids), name: clip(body.name) } };
  },
  'ChannelController.update': ({ body, result }) => ({
    key: 'log_text_channel_updated',
    params: {
      id: String(obj(result).id ?? body.id),
      name: clip(obj(result).name ?? body.name),
      fields: changedFields(body),
    },
  }),
  'ChannelController.remove': ({ params }) => ({
    key: 'log_text_channel_deleted',
    params: { id: String(params.id) },
  }),
  'ChannelController.removeDisabled': ({ result }) => ({
    key: 'log_text_channels_disabled_deleted',
    params: { count: Number(result) },
  }),
  'ChannelController.removeMany': ({ result }) =>
    Number(result) > 0 ? { key: 'log_text_channels_deleted', params: { count: Number(result) } } : null,
  'ChannelController.copy': ({ params, result }) => ({
    key: 'log_text_channel_copied',
    params: { id: String(params.id), copy: String(obj(result).id) },
  }),
  'ChannelController.enableTag': ({ body, result }) => ({
    key: 'log_text_tag_enabled',
    params: { tag: clip(body.tag), count: Number(result) },
  }),
  'ChannelController.disableTag': ({ body, result }) => ({
    key: 'log_text_tag_disabled',
    params: { tag: clip(body.tag), count: Number(result) },
  }),
  'ChannelController.editTag': ({ body, result }) => ({
    key: 'log_text_tag_edited',
    params: {
      tag: clip(body.tag),
      count: Number(result),
      fields: Object.keys(body)
        .filter((k) => k !== 'tag')
        .join(', '),
    },
  }),
  'ChannelController.batchTag': ({ body, result }) =>
    Number(result) > 0
      ? { key: 'log_text_tag_set', params: { tag: clip(body.tag), count: Number(result) } }
      : null,
};

/** The handler's value, whether or not the envelope has been put around it already. */
function unwrap(value: unknown): unknown {
  const v = obj(value);
  return typeof v.success === 'boolean' && 'data' in v && 'message' in v ? v.data : value;
}

/**
 * The record of administrative changes, written after a change succeeded: the audit trail (every route
 * of AUDIT_ACTIONS: targets read before and after the handler, only real changes written) and, for
 * channel administration, the management log line (type 3) of the usage log. Keyed by controller class
 * and handler; a handler listed in neither table writes nothing.
 */
@Injectable()
export class ManageLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ManageLog');

  constructor(
    private readonly logs: LogService,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const handlerKey = `${context.getClass().name}.${context.getHandler().name}`;
    const describe = CHANNEL_ACTIONS[handlerKey];
    const audited = AUDIT_ACTIONS[handlerKey];
    if (!describe && !audited) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const call = { body: obj(req.body), params: obj(req.params), query: obj(req.query) };
    // The audited targets are read before the handler changes them.
    const started: Promise<AuditCapture | null> = audited
      ? this.audit.begin(audited, req, call).catch((err: Error) => {
          this.logger.error(`audit snapshot failed: ${err.message}`);
          return null;
        })
      : Promise.resolve(null);
    return from(started).pipe(
      switchMap((capture) =>
        next.handle().pipe(
          concatMap(async (value: unknown) => {
            const result = unwrap(value);
            // The change is made; a lost record must not turn it into an error.
            try {
              await capture?.finish(result);
            } catch (err) {
              this.logger.error(`audit entry not written: ${(err as Error).message}`);
            }
            const actor = req.auth;
            if (!describe || !actor) return value;
            try {
              const content = describe({ ...call, result });
              if (content)
                await this.logs.record({
                  userId: actor.id,
                  username: actor.username,
                  type: LogType.Manage,
                  content: { key: content.key, params: { ...content.params, actor: actor.username } },
                });
            } catch (err) {
              this.logger.error(`management log not written: ${(err as Error).message}`);
            }
            return value;
          }),
        ),
      ),
    );
  }
}
