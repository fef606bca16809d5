import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, Observable, switchMap } from 'rxjs';
import { AUDIT_ACTIONS, AuditCall, obj } from './audit-actions';
import { AuditCapture, AuditService } from './audit.service';

/** The handler's value, whether or not the envelope has been put around it already. */
function unwrap(value: unknown): unknown {
  const v = obj(value);
  return typeof v.success === 'boolean' && 'data' in v && 'message' in v ? v.data : value;
}

/**
 * Writes the audit trail of the administrative routes listed in AUDIT_ACTIONS: the targets' states are
 * read before the handler runs and again after it succeeded, and only real changes are written.
 * A failed call writes nothing.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(private readonly audit: AuditService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const spec = AUDIT_ACTIONS[`${context.getClass().name}.${context.getHandler().name}`];
    if (!spec) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const call: AuditCall = { body: obj(req.body), params: obj(req.params), query: obj(req.query) };
    const started = this.audit.begin(spec, req, call).catch((err: Error): AuditCapture | null => {
      this.logger.error(`audit snapshot failed: ${err.message}`);
      return null;
    });
    return from(started).pipe(
      switchMap((capture) =>
        next.handle().pipe(
          concatMap(async (value: unknown) => {
            try {
              await capture?.finish(unwrap(value));
            } catch (err) {
              // The change is made; a lost audit entry must not turn it into an error.
              this.logger.error(`audit entry not written: ${(err as Error).message}`);
            }
            return value;
          }),
        ),
      ),
    );
  }
}
