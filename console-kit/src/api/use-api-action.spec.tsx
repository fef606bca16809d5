import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { renderInConsole } from '../test/render-in-console';
import { useApiAction } from './use-api-action';

function Probe({ work, onDone }: { work: () => Promise<number>; onDone: (ok: boolean) => void }) {
  const { t } = useTranslation();
  const action = useApiAction(t);
  return (
    <button
      type="button"
      disabled={action.busy}
      onClick={() => void action.run(work, { success: (n) => `saved ${n}` }).then(onDone)}
    >
      go
    </button>
  );
}

/** A call that fails as RTK Query's unwrap() does: with the plain error object, not an Error. */
async function rejectWith(error: { status: string; message: string }): Promise<number> {
  await Promise.resolve();
  throw error; // eslint-disable-line @typescript-eslint/only-throw-error
}

describe('useApiAction', () => {
  it('toasts the success worded from the answer, and is busy while the call runs', async () => {
    let release: (value: number) => void = () => undefined;
    const results: boolean[] = [];
    renderInConsole(
      <Probe
        work={() => new Promise<number>((resolve) => (release = resolve))}
        onDone={(ok) => results.push(ok)}
      />,
    );
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'go' });
    await user.click(button);
    expect(button.hasAttribute('disabled')).toBe(true);
    release(3);
    expect(await screen.findByText('saved 3')).toBeTruthy();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(results).toEqual([true]);
  });

  it("toasts the server's reason on failure and resolves to false", async () => {
    const results: boolean[] = [];
    renderInConsole(
      <Probe
        work={() => rejectWith({ status: 'ENVELOPE', message: 'Channel name taken' })}
        onDone={(ok) => results.push(ok)}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'go' }));
    expect(await screen.findByText('Channel name taken')).toBeTruthy();
    expect(screen.queryByText(/saved/)).toBeNull();
    await waitFor(() => expect(results).toEqual([false]));
  });
});
