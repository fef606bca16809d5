import type { Passport, Strategy } from 'passport';

type Authenticator = InstanceType<typeof Passport>;

const TIMEOUT_MS = 20_000;

/**
 * Runs a passport strategy for one authorization-code callback and resolves with the user its verify
 * callback produced. The strategy sees only the callback parameters; a strategy that tries to
 * redirect (no code) or fails is an error. No passport session is involved.
 */
export function runStrategy<T>(
  authenticator: Authenticator,
  strategy: Strategy,
  query: Record<string, string>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the provider did not answer in time')), TIMEOUT_MS);
    const done = (err: Error | null, user?: T) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(user as T);
    };
    const req = { method: 'GET', url: '/', headers: {}, query, body: {} };
    const res = {
      statusCode: 200,
      setHeader: () => undefined,
      end: () => done(new Error('the strategy tried to redirect')),
    };
    const middleware = authenticator.authenticate(
      strategy,
      { session: false },
      (err: unknown, user: T | false, info: unknown) => {
        if (err) return done(err instanceof Error ? err : new Error('the strategy failed'));
        if (!user) return done(new Error(`authentication failed: ${JSON.stringify(info ?? null)}`));
        done(null, user);
      },
    ) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
    middleware(req, res, (err?: unknown) =>
      done(err instanceof Error ? err : new Error('the strategy passed')),
    );
  });
}
