import type { ReactNode } from 'react';
import { Chip, Link, TableCell, TableRow, Tooltip, type SxProps, type Theme } from '@mui/material';
import type { TFunction } from 'i18next';
import { channelColor, durationColor } from '../lib/task-display';
import { ListTable, type ListQueryState, type Paging } from './list-page';
import type { PhoneColumn } from './responsive-table';

/**
 * Translation of the log's feature namespace; besides the list's keys (see ListTable) the cells read
 * `row.seconds`, `row.copyChannel`, `row.showRecord`, `row.showFull` and `row.none`.
 */
type Translate = TFunction;

/** One column of a task log: its header reads `columns.<key>`. */
export interface TaskColumn<T> {
  key: string;
  cell: (task: T) => ReactNode;
  /** Styles of the column's body cells. */
  sx?: SxProps<Theme>;
  /** How the column shows in the phone's row cards (a labelled field by default). */
  phone?: PhoneColumn;
  /** Shown to admins only (e.g. the channel). */
  adminOnly?: boolean;
}

export interface TaskTableProps<T extends { id: number }> {
  t: Translate;
  /** The table's accessible name. */
  label: string;
  columns: readonly TaskColumn<T>[];
  admin: boolean;
  /** Each row's test id is `<rowTestId>-<task id>`. */
  rowTestId: string;
  query: Omit<ListQueryState, 'data'> & { data?: { items: readonly T[]; total: number } };
  paging: Paging;
}

/**
 * The paged table of a task log (drawing tasks, generic tasks): one row per task, one cell per column
 * the viewer may see, cards on phones; built on the console's list table.
 */
export function TaskTable<T extends { id: number }>({
  t,
  label,
  columns,
  admin,
  rowTestId,
  query,
  paging,
}: TaskTableProps<T>) {
  const shown = columns.filter((column) => admin || !column.adminOnly);
  const phoneColumns: Record<string, PhoneColumn> = {};
  for (const column of shown) {
    if (column.phone) phoneColumns[column.key] = column.phone;
  }
  return (
    <ListTable
      t={t}
      label={label}
      columns={shown.map((column) => column.key)}
      phoneColumns={phoneColumns}
      query={query}
      paging={paging}
    >
      {(query.data?.items ?? []).map((task) => (
        <TableRow key={task.id} data-testid={`${rowTestId}-${task.id}`}>
          {shown.map((column) => (
            <TableCell key={column.key} sx={column.sx}>
              {column.cell(task)}
            </TableCell>
          ))}
        </TableRow>
      ))}
    </ListTable>
  );
}

/** How long the task took, red above a minute; nothing while it has not finished. */
export function TaskDurationChip({ seconds, t }: { seconds: number | null; t: Translate }) {
  if (seconds === null) return null;
  return <Chip size="small" color={durationColor(seconds)} label={t('row.seconds', { value: seconds })} />;
}

/** The duration column both logs show (hidden in the phone's cards): `seconds` of a row, null when open. */
export function taskDurationColumn<T>(seconds: (task: T) => number | null, t: Translate): TaskColumn<T> {
  return {
    key: 'duration',
    phone: 'hide',
    cell: (task) => <TaskDurationChip seconds={seconds(task)} t={t} />,
  };
}

/** The channel column both logs show to admins: a click copies the id. */
export function taskChannelColumn<T extends { channel_id?: number }>(
  t: Translate,
  onCopy: (id: number) => void,
): TaskColumn<T> {
  return {
    key: 'channel',
    adminOnly: true,
    cell: (task) => <TaskChannelChip channelId={task.channel_id} t={t} onCopy={onCopy} />,
  };
}

/** The task's channel in its own colour; a click copies the id. */
export function TaskChannelChip({
  channelId,
  t,
  onCopy,
}: {
  channelId: number | undefined;
  t: Translate;
  onCopy: (id: number) => void;
}) {
  if (channelId === undefined) return null;
  return (
    <Tooltip title={t('row.copyChannel')}>
      <Chip
        size="small"
        color={channelColor(channelId)}
        label={channelId}
        onClick={() => onCopy(channelId)}
      />
    </Tooltip>
  );
}

/** The task's id; a click shows the whole record. */
export function TaskRecordLink({ id, t, onOpen }: { id: string; t: Translate; onOpen: () => void }) {
  return (
    <Tooltip title={t('row.showRecord')}>
      <Link component="button" type="button" onClick={onOpen} sx={{ fontFamily: 'monospace' }}>
        {id}
      </Link>
    </Tooltip>
  );
}

const clip = {
  maxWidth: 200,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  display: 'block',
} as const;

/** A long text cut to one line; a click shows it whole. `row.none` when there is none. */
export function TaskTextLink({ text, t, onOpen }: { text: string; t: Translate; onOpen: () => void }) {
  if (!text) return t('row.none');
  return (
    <Tooltip title={t('row.showFull')}>
      <Link component="button" type="button" onClick={onOpen} sx={clip}>
        {text}
      </Link>
    </Tooltip>
  );
}
