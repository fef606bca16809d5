import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Paper,
  Stack,
  TableCell,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { describeApiError } from '../api/describe-api-error';
import { useConsoleStorage } from '../provider/console-context';
import { LIST_PAGE_SIZE_KEY, LIST_PAGE_SIZES, listPageSize } from './page-size';
import { usePhoneLayout } from './phone-layout';
import { ResponsiveTable, type PhoneColumn } from './responsive-table';

export { PHONE_MEDIA_QUERY, usePhoneLayout } from './phone-layout';

export interface Paging {
  /** 1-based. */
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  /** Remembers the size and goes back to page 1. */
  changePageSize: (size: number | string) => void;
}

/** The 1-based page and the remembered page size of a paged list. */
export function usePaging(): Paging {
  const storage = useConsoleStorage();
  const [pageSize, setPageSize] = useState(() => listPageSize(storage.getItem(LIST_PAGE_SIZE_KEY)));
  const [page, setPage] = useState(1);
  return {
    page,
    pageSize,
    setPage,
    changePageSize: (size) => {
      const next = listPageSize(size);
      storage.setItem(LIST_PAGE_SIZE_KEY, String(next));
      setPageSize(next);
      setPage(1);
    },
  };
}

/**
 * Translation of the list's feature namespace. The parts read fixed keys there: `pagination.rowsPerPage`,
 * `pagination.displayed`, `empty`, `loadFailed`, `columns.<key>`, `search.submit`, `search.<field>`.
 */
type Translate = TFunction;

export interface ListPaginationProps {
  t: Translate;
  paging: Paging;
  total: number;
  /** Called before the page changes (e.g. to clear a selection). */
  onPageChange?: (page: number) => void;
}

/** The pager under a list: page sizes 10/20/50/100 and the text "Items start-end of total". */
export function ListPagination({ t, paging, total, onPageChange }: ListPaginationProps) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.max(0, paging.page - 1)}
      rowsPerPage={paging.pageSize}
      rowsPerPageOptions={[...LIST_PAGE_SIZES]}
      onPageChange={(_event, next) => {
        onPageChange?.(next + 1);
        paging.setPage(next + 1);
      }}
      onRowsPerPageChange={(event) => paging.changePageSize(event.target.value)}
      labelRowsPerPage={t('pagination.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) => t('pagination.displayed', { from, to, count })}
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap' } }}
    />
  );
}

/** A list screen: padding, the title, then its parts stacked. */
export function ListPageLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {children}
      </Stack>
    </Box>
  );
}

/** The search form above a list: its fields, the search button, then `actions`; a column on phones. */
export function ListSearchBar({
  t,
  onSearch,
  children,
  actions,
}: {
  t: Translate;
  onSearch: () => void;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <Paper component="form" role="search" onSubmit={submit} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {children}
        <Button type="submit" variant="contained">
          {t('search.submit')}
        </Button>
        {actions}
      </Stack>
    </Paper>
  );
}

/** A text field of the search form, labelled by `search.<name>` and `search.<name>Placeholder`. */
export function ListSearchField({
  t,
  name,
  value,
  onChange,
}: {
  t: Translate;
  name: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={t(`search.${name}`)}
      placeholder={t(`search.${name}Placeholder`)}
      name={name}
      size="small"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ flexGrow: 1 }}
    />
  );
}

/** What ListTable reads of a list query (RTK Query's result). */
export interface ListQueryState {
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
  data?: { items: readonly unknown[]; total: number };
}

export interface ListTableProps {
  t: Translate;
  /** The table's accessible name. */
  label: string;
  /** Column keys: each header reads `columns.<key>`. */
  columns: readonly string[];
  /** A header cell before the named columns (e.g. select-all). */
  leadingHead?: ReactNode;
  /** The body rows. */
  children: ReactNode;
  /** Shown instead of the table on phones (≤ 600 px), when given; otherwise each row becomes a card. */
  cards?: ReactNode;
  /** How columns show in the phone's row cards (by column key): 'wide' under their label, 'hide' left out. */
  phoneColumns?: Readonly<Record<string, PhoneColumn>>;
  query: ListQueryState;
  paging: Paging;
  onPageChange?: (page: number) => void;
}

/**
 * The paged table of a list screen: the load error (`loadFailed` when the server gives no reason), a
 * progress bar while fetching, the table (or the cards on phones), the `empty` text when nothing
 * matched, and the pager.
 */
export function ListTable(props: ListTableProps) {
  const { t, query } = props;
  const phone = usePhoneLayout();
  const showCards = phone && props.cards !== undefined;
  const empty = !query.isFetching && (query.data?.items.length ?? 0) === 0;
  const columnCount = props.columns.length + (props.leadingHead ? 1 : 0);
  return (
    <>
      {query.isError && <Alert severity="error">{describeApiError(query.error, t, t('loadFailed'))}</Alert>}
      <Paper>
        {query.isFetching && <LinearProgress />}
        {showCards ? (
          <Stack spacing={1} sx={{ p: 1 }} data-testid="list-cards">
            {props.cards}
            {empty && (
              <Typography align="center" sx={{ py: 2 }}>
                {t('empty')}
              </Typography>
            )}
          </Stack>
        ) : (
          <ResponsiveTable
            label={props.label}
            tableSx={{ '& th': { whiteSpace: 'nowrap' } }}
            columns={[
              ...(props.leadingHead ? [{ key: '_leading', label: '', head: props.leadingHead }] : []),
              ...props.columns.map((key) => ({
                key,
                label: t(`columns.${key}`),
                phone: props.phoneColumns?.[key],
              })),
            ]}
          >
            {props.children}
            {empty && (
              <TableRow>
                <TableCell colSpan={columnCount} align="center">
                  {t('empty')}
                </TableCell>
              </TableRow>
            )}
          </ResponsiveTable>
        )}
        <ListPagination
          t={t}
          paging={props.paging}
          total={query.data?.total ?? 0}
          onPageChange={props.onPageChange}
        />
      </Paper>
    </>
  );
}
