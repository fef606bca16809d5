import { useCallback, useEffect, useState } from 'react';

/** Spec: an email code can be asked for again after 30 seconds; so can a reset mail. */
export const RESEND_WAIT_SECONDS = 30;

/**
 * Seconds left before an action may run again; `start()` begins a new wait. Counted from a deadline,
 * so a throttled background tab still ends the wait on time.
 */
export function useCountdown(seconds: number = RESEND_WAIT_SECONDS) {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (deadline === null) {
      return undefined;
    }
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) {
        setDeadline(null);
      }
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [deadline]);

  const start = useCallback(() => setDeadline(Date.now() + seconds * 1000), [seconds]);
  return { remaining, active: remaining > 0, start };
}
