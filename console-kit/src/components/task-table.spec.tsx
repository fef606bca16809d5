import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useFeatureTranslation } from '../provider/console-i18n';
import { renderInConsole } from '../test/render-in-console';
import type { Paging } from './list-page';
import { TaskChannelChip, TaskTable, TaskTextLink, type TaskColumn } from './task-table';

interface Job {
  id: number;
  name: string;
  channel: number;
  note: string;
}

const texts = {
  columns: { name: 'Name', channel: 'Channel', note: 'Note' },
  row: { copyChannel: 'Copy channel', showFull: 'Show all', none: '-' },
  pagination: { rowsPerPage: 'Rows', displayed: '{{from}}-{{to}} of {{count}}' },
  empty: 'Nothing yet',
  loadFailed: 'Load failed',
};

const paging: Paging = { page: 1, pageSize: 10, setPage: () => undefined, changePageSize: () => undefined };

function Jobs({ admin, jobs, onCopy }: { admin: boolean; jobs: Job[]; onCopy: (id: number) => void }) {
  const { t } = useFeatureTranslation('taskTableSpec', { en: texts, zh: texts });
  const columns: TaskColumn<Job>[] = [
    { key: 'name', cell: (job) => job.name },
    {
      key: 'channel',
      adminOnly: true,
      cell: (job) => <TaskChannelChip channelId={job.channel} t={t} onCopy={onCopy} />,
    },
    {
      key: 'note',
      phone: 'hide',
      cell: (job) => <TaskTextLink text={job.note} t={t} onOpen={() => undefined} />,
    },
  ];
  return (
    <TaskTable
      t={t}
      label="Jobs"
      columns={columns}
      admin={admin}
      rowTestId="job-row"
      query={{ isFetching: false, isError: false, data: { items: jobs, total: jobs.length } }}
      paging={paging}
    />
  );
}

const jobs: Job[] = [
  { id: 1, name: 'first', channel: 7, note: 'a long note' },
  { id: 2, name: 'second', channel: 8, note: '' },
];

function stubPhone(phone: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: phone && query.includes('max-width:600px'),
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TaskTable', () => {
  it('shows admins every column, one row per task with its cells in column order', async () => {
    const copied: number[] = [];
    renderInConsole(<Jobs admin jobs={jobs} onCopy={(id) => copied.push(id)} />);
    const table = await screen.findByRole('table', { name: 'Jobs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Channel', 'Note']);
    const first = screen.getByTestId('job-row-1');
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['first', '7', 'a long note']);
    expect(within(screen.getByTestId('job-row-2')).getAllByRole('cell')[2].textContent).toBe('-');
    await userEvent.setup().click(within(first).getByText('7'));
    expect(copied).toEqual([7]);
  });

  it('leaves admin-only columns out for users', async () => {
    renderInConsole(<Jobs admin={false} jobs={jobs} onCopy={() => undefined} />);
    const table = await screen.findByRole('table', { name: 'Jobs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Note']);
    expect(within(screen.getByTestId('job-row-1')).getAllByRole('cell')).toHaveLength(2);
  });

  it('is cards on phones, with the columns marked hide left out', async () => {
    stubPhone(true);
    renderInConsole(<Jobs admin jobs={jobs} onCopy={() => undefined} />);
    await screen.findByTestId('job-row-1');
    const container = screen.getByRole('table', { name: 'Jobs' }).parentElement;
    expect(container?.getAttribute('data-layout')).toBe('cards');
    const row = screen.getByTestId('job-row-1');
    // The hidden column is out of the card (and so of the accessibility tree); the others stay as fields.
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['first', '7']);
    const note = within(row).getAllByRole('cell', { hidden: true })[2];
    expect(note.textContent).toBe('a long note');
    expect(window.getComputedStyle(note).display).toBe('none');
  });
});
