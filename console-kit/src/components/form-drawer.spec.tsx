import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInConsole } from '../test/render-in-console';
import { FormDrawer, useUnsavedEdits } from './form-drawer';

function NameForm() {
  const [name, setName] = useState('');
  useUnsavedEdits(name !== '');
  return <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />;
}

describe('FormDrawer', () => {
  it('closes an untouched form on Escape at once', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderInConsole(
      <FormDrawer open onClose={onClose} width={400}>
        <NameForm />
      </FormDrawer>,
    );
    await user.click(await screen.findByLabelText('Name'));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Discard unsaved changes?')).toBeNull();
  });

  it('asks before Escape throws edits away, and keeps them when told to', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderInConsole(
      <FormDrawer open onClose={onClose} width={400}>
        <NameForm />
      </FormDrawer>,
    );
    await user.type(await screen.findByLabelText('Name'), 'alice');
    await user.keyboard('{Escape}');
    expect(await screen.findByText('Discard unsaved changes?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('alice');

    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Escape}');
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
