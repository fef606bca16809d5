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
  run<T>(work: () => Promise<T>, options?: ApiActionOptions<T>): Promise<boolean>;
  busy: boolean;
}

/** The call-with-toast-and-busy pattern of the console's buttons; `t` translates the failure texts. */
export function useApiAction(t: TFunction): ApiAction {
  const notify = useNotify();
  const [running, setRunning] = useState(0);

  const run = useCallback(
    async <T>(work: () => Promise<T>, options: ApiActionOptions<T> = {}): Promise<boolean> => {
      setRunning((count) => count + 1);
      try {
        const answer = await work();
        const { success } = options;
        if (success !== undefined) {
          notify(typeof success === 'function' ? success(answer) : success, 'success');
        }
        return true;
      } catch (failure) {
        notify(describeApiError(failure, t, options.fallback), 'error');
        return false;
      } finally {
        setRunning((count) => count - 1);
      }
    },
    [notify, t],
  );

  return { run, busy: running > 0 };
}
