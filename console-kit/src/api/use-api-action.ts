import { useCallback, useState } from 'react';
import type { TFunction } from 'i18next';
import { useNotify } from '../provider/console-context';
import { describeApiError } from './describe-api-error';

export interface ApiActionOptions<T> {
  /** The toast after success: a text, or one made from the answer; none when omitted. */
  success?: string | ((answer: T) => string);
  /** Shown when a failure carries no reason of its own. */
  fallback?: string;
}

export interface ApiAction {
  /**
   * Runs one server call: while it runs `busy` is true; success may toast, failure always toasts the
   * server's reason (in the console's language). Resolves to whether it succeeded, never rejects.
   */
  run: <T>(work: () => Promise<T>, options?: ApiActionOptions<T>) => Promise<boolean>;
  /** As `run`, for a call whose answer the caller goes on with: resolves to it, or undefined after a failure. */
  answer: <T>(work: () => Promise<T>, options?: ApiActionOptions<T>) => Promise<T | undefined>;
  busy: boolean;
}

type Outcome<T> = { ok: true; value: T } | { ok: false };

/** The call-with-toast-and-busy pattern of the console's buttons; `t` translates the failure texts. */
export function useApiAction(t: TFunction): ApiAction {
  const notify = useNotify();
  const [running, setRunning] = useState(0);

  const attempt = useCallback(
    async <T>(work: () => Promise<T>, options: ApiActionOptions<T> = {}): Promise<Outcome<T>> => {
      setRunning((count) => count + 1);
      try {
        const value = await work();
        const { success } = options;
        if (success !== undefined) {
          notify(typeof success === 'function' ? success(value) : success, 'success');
        }
        return { ok: true, value };
      } catch (failure) {
        notify(describeApiError(failure, t, options.fallback), 'error');
        return { ok: false };
      } finally {
        setRunning((count) => count - 1);
      }
    },
    [notify, t],
  );
  const run = useCallback(
    async <T>(work: () => Promise<T>, options?: ApiActionOptions<T>) => (await attempt(work, options)).ok,
    [attempt],
  );
  const answer = useCallback(
    async <T>(work: () => Promise<T>, options?: ApiActionOptions<T>) => {
      const outcome = await attempt(work, options);
      return outcome.ok ? outcome.value : undefined;
    },
    [attempt],
  );

  return { run, answer, busy: running > 0 };
}
