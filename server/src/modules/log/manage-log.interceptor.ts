import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, Observable } from 'rxjs';
import { LogType } from '../../database/entities';
import { LogService } from './log.service';

type Raw = Record<string, unknown>;

interface Call {
  body: Raw;
  params: Raw;
  query: Raw;
  /** What the handler returned. */
  result: unknown;
}

const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
const clip = (s: unknown, max = 64) => {
  const t = typeof s === 'string' ? s : '';
  return [...t].length > max ? [...t].slice(0, max).join('') + '…' : t;
};
const idList = (ids: unknown[]) =>
  ids.length > 20 ? `#${ids.slice(0, 20).join(', #')} …（共 ${ids.length} 个）` : `#${ids.join(', #')}`;

/** Fields of a channel edit named in its log (values are left out: keys are secrets). */
function changedFields(body: Raw): string {
  return Object.keys(body)
    .filter((k) => k !== 'id' && !(k === 'key' && !body.key))
    .join(', ');
}

/**
 * Channel administration writes a management log (type 3) for the admin who acted, after the change
 * succeeded. Keyed by controller class and handler; a handler not listed writes nothing.
 */
const CHANNEL_ACTIONS: Record<string, (c: Call) => string | null> = {
  'ChannelController.create': ({ body, result }) => {
    const ids = Array.isArray(obj(result).ids) ? (obj(result).ids as unknown[]) : [obj(result).id];
    return `创建渠道 ${idList(ids)}（${clip(body.name)}）`;
  },
  'ChannelController.update': ({ body, result }) =>
    `更新渠道 #${String(obj(result).id ?? body.id)}（${clip(obj(result).name ?? body.name)}）：${changedFields(body)}`,
  'ChannelController.remove': ({ params }) => `删除渠道 #${String(params.id)}`,
  'ChannelController.removeDisabled': ({ result }) => `删除所有已禁用的渠道，共 ${Number(result)} 个`,
  'ChannelController.removeMany': ({ result }) =>
    Number(result) > 0 ? `批量删除渠道 ${Number(result)} 个` : null,
  'ChannelController.copy': ({ params, result }) =>
    `复制渠道 #${String(params.id)} 为 #${String(obj(result).id)}`,
  'ChannelController.enableTag': ({ body, result }) =>
    `启用标签 ${clip(body.tag)} 的 ${Number(result)} 个渠道`,
  'ChannelController.disableTag': ({ body, result }) =>
    `禁用标签 ${clip(body.tag)} 的 ${Number(result)} 个渠道`,
  'ChannelController.editTag': ({ body, result }) =>
    `编辑标签 ${clip(body.tag)} 的 ${Number(result)} 个渠道：${Object.keys(body)
      .filter((k) => k !== 'tag')
      .join(', ')}`,
  'ChannelController.batchTag': ({ body, result }) =>
    Number(result) > 0 ? `为 ${Number(result)} 个渠道设置标签 ${clip(body.tag)}` : null,
};

/** The handler's value, whether or not the envelope has been put around it already. */
function unwrap(value: unknown): unknown {
  const v = obj(value);
  return typeof v.success === 'boolean' && 'data' in v && 'message' in v ? v.data : value;
}

@Injectable()
export class ManageLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ManageLog');

  constructor(private readonly logs: LogService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const describe = CHANNEL_ACTIONS[`${context.getClass().name}.${context.getHandler().name}`];
    if (!describe) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      concatMap(async (value: unknown) => {
        const actor = req.auth;
        if (!actor) return value;
        try {
          const content = describe({
            body: obj(req.body),
            params: obj(req.params),
            query: obj(req.query),
            result: unwrap(value),
          });
          if (content)
            await this.logs.record({
              userId: actor.id,
              username: actor.username,
              type: LogType.Manage,
              content: `${content}（${actor.username}）`,
            });
        } catch (err) {
          // The change is made; a lost audit line must not turn it into an error.
          this.logger.error(`management log not written: ${(err as Error).message}`);
        }
        return value;
      }),
    );
  }
}
