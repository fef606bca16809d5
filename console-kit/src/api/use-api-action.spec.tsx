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

function AnswerProbe({ work, onAnswer }: { work: () => Promise<string>; onAnswer: (key?: string) => void }) {
  const { t } = useTranslation();
  const action = useApiAction(t);
  return (
    <button type="button" disabled={action.busy} onClick={() => void action.answer(work).then(onAnswer)}>
      fetch
    </button>
  );
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

  it('answer resolves to what the call answered, with no toast when no success text is given', async () => {
    const answers: (string | undefined)[] = [];
    renderInConsole(
      <AnswerProbe work={() => Promise.resolve('sk-full')} onAnswer={(key) => answers.push(key)} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'fetch' }));
    await waitFor(() => expect(answers).toEqual(['sk-full']));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("answer toasts the server's reason and resolves to undefined on failure", async () => {
    const answers: (string | undefined)[] = [];
    renderInConsole(
      <AnswerProbe
        work={async () => {
          await rejectWith({ status: 'ENVELOPE', message: 'Token not found' });
          return 'never';
        }}
        onAnswer={(key) => answers.push(key)}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'fetch' }));
    expect(await screen.findByText('Token not found')).toBeTruthy();
    await waitFor(() => expect(answers).toEqual([undefined]));
  });
});
