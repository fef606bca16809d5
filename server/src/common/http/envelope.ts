import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';

export const RAW_RESPONSE = 'gatehouse:raw-response';
/** The handler's return value is sent as is (the few shapes kept for client compatibility). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

/** A handler may return this to add a success message to the envelope. */
export class WithMessage<T> {
  constructor(
    readonly data: T,
    readonly message: string,
  ) {}
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (raw) return next.handle();
    return next
      .handle()
      .pipe(
        map((value: unknown): Envelope =>
          value instanceof WithMessage
            ? { success: true, message: value.message, data: value.data }
            : { success: true, message: '', data: value === undefined ? null : value },
        ),
      );
  }
}
