import { Fragment, type ReactNode } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  type SxProps,
  type Theme,
} from '@mui/material';
import { usePhoneLayout } from './phone-layout';

/** How a column shows on a phone, where every row becomes a card of labelled fields. */
export type PhoneColumn =
  /** Label left, value right (the default). */
  | 'field'
  /** Label above a full-width value: button rows, model lists, long text. */
  | 'wide'
  /** Not shown on phones: the desktop's extra detail. */
  | 'hide';

export interface ResponsiveColumn {
  key: string;
  /** The column's name: the header cell on a desktop, the field's label on a phone ('' for none). */
  label: string;
  /** A header cell (a TableCell) of its own instead of the label, e.g. a select-all checkbox. */
  head?: ReactNode;
  phone?: PhoneColumn;
}

export interface ResponsiveTableProps {
  /** The table's accessible name. */
  label: string;
  columns: readonly ResponsiveColumn[];
  /** The body rows: one TableCell per column, in order (a row of one cell spanning all is kept whole). */
  children: ReactNode;
  /** Styles of the desktop table. */
  tableSx?: SxProps<Theme>;
  'data-testid'?: string;
}

/** A CSS string literal of `text` (quotes, backslashes and line breaks escaped). */
function cssString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\A ')}"`;
}

/** The card styles of a phone: each row a bordered card, each cell a labelled field, nothing wider than the screen. */
function phoneSx(columns: readonly ResponsiveColumn[]): SxProps<Theme> {
  const perColumn: Record<string, object> = {};
  columns.forEach((column, index) => {
    const cell = `& tbody td:nth-of-type(${index + 1})`;
    if (column.phone === 'hide') {
      perColumn[cell] = { display: 'none' };
    } else if (column.phone === 'wide') {
      perColumn[cell] = { flexDirection: 'column', alignItems: 'stretch' };
    }
    perColumn[`${cell}::before`] = column.label ? { content: cssString(column.label) } : { content: 'none' };
    // An unnamed first column (a checkbox, an expand button) sits in the card's top right corner.
    if (index === 0 && !column.label && column.phone !== 'hide') {
      perColumn[cell] = { position: 'absolute', top: 4, right: 4, p: 0 };
    }
  });
  return {
    overflowX: 'visible',
    p: 1,
    '& table, & tbody, & tbody tr': { display: 'block', width: '100%' },
    '& thead': { display: 'none' },
    '& tbody tr': {
      position: 'relative',
      border: 1,
      borderColor: 'divider',
      borderRadius: 1,
      mb: 1,
      px: 1.5,
      py: 0.5,
      boxSizing: 'border-box',
    },
    '& tbody td': {
      display: 'flex',
      alignItems: 'center',
      gap: 1,
      minWidth: 0,
      width: 'auto',
      maxWidth: 'none',
      boxSizing: 'border-box',
      px: 0,
      py: 0.5,
      border: 'none',
      overflowWrap: 'anywhere',
      wordBreak: 'break-word',
      whiteSpace: 'normal',
    },
    '& tbody td > *': { minWidth: 0, maxWidth: '100%' },
    '& tbody td::before': {
      flex: '0 0 34%',
      color: 'text.secondary',
      typography: 'caption',
      fontWeight: 500,
    },
    ...perColumn,
    // A row of one spanning cell (details, "nothing found") is a whole, unlabelled block under its card.
    '& tbody td[colspan]': { display: 'block' },
    '& tbody td[colspan]::before': { content: 'none' },
    '& tbody tr:has(> td[colspan])': {
      mt: -1,
      borderTop: 'none',
      borderTopLeftRadius: 0,
      borderTopRightRadius: 0,
    },
    '& tbody tr:first-of-type:has(> td[colspan])': { mt: 0, borderTop: 1, borderColor: 'divider' },
  };
}

/**
 * A list table that is a real table on wider screens and, on phones (≤ 600 px), a stack of cards: every
 * row a card, every cell a field labelled with its column's name, low-priority columns left out, and
 * nothing that needs a sideways scroll.
 */
export function ResponsiveTable({ label, columns, children, tableSx, ...rest }: ResponsiveTableProps) {
  const phone = usePhoneLayout();
  return (
    <TableContainer
      data-testid={rest['data-testid']}
      data-layout={phone ? 'cards' : 'table'}
      sx={phone ? phoneSx(columns) : undefined}
    >
      <Table size="small" aria-label={label} sx={phone ? undefined : tableSx}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <Fragment key={column.key}>{column.head ?? <TableCell>{column.label}</TableCell>}</Fragment>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}
