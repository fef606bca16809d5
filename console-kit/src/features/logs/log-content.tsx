import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { gatehouseApi } from '../../api/gatehouse-api';
import { describeApiError } from '../../api/describe-api-error';

/** A log row's stored request and answer (content logs), as GET /api/log/{id}/content answers it. */
export interface LogContent {
  log_id: number;
  request_id: string;
  created_at: number;
  request: string;
  response: string;
  meta: Record<string, unknown>;
}

const contentApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    logContent: builder.query<LogContent, number>({
      query: (id) => `/api/log/${id}/content`,
    }),
  }),
});

export const { useLogContentQuery } = contentApi;

/** Whether a log row has stored content (the relay marks it in `other`). */
export function hasStoredContent(other: Record<string, unknown>): boolean {
  return other.content_logged === true;
}

/** JSON text indented for reading; any other text as it is. */
export function prettyBody(text: string): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Body({
  label,
  text,
  truncated,
  t,
}: {
  label: string;
  text: string;
  truncated: boolean;
  t: TFunction;
}) {
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <Typography variant="subtitle2">{label}</Typography>
        {truncated && <Chip size="small" color="warning" label={t('content.truncated')} />}
      </Stack>
      <Box
        component="pre"
        sx={{
          m: 0,
          p: 1,
          maxHeight: 360,
          overflow: 'auto',
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: 12,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {text ? prettyBody(text) : t('content.empty')}
      </Box>
    </Box>
  );
}

function ContentView({ id, t }: { id: number; t: TFunction }) {
  const query = useLogContentQuery(id);
  if (query.isLoading) return <CircularProgress size={24} />;
  if (query.isError || !query.data)
    return <Alert severity="warning">{describeApiError(query.error, t, t('content.loadFailed'))}</Alert>;
  const { request, response, meta } = query.data;
  const headers =
    meta.headers && typeof meta.headers === 'object' ? (meta.headers as Record<string, string>) : {};
  const kind = typeof meta.response_kind === 'string' ? meta.response_kind : '';
  return (
    <Stack spacing={2} data-testid="log-content">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {typeof meta.status === 'number' && (
          <Chip size="small" label={t('content.status', { value: meta.status })} />
        )}
        {typeof meta.path === 'string' && meta.path && <Chip size="small" label={meta.path} />}
        {kind && <Chip size="small" label={t(`content.kind.${kind}`, { defaultValue: kind })} />}
      </Stack>
      <Body label={t('content.request')} text={request} truncated={meta.request_truncated === true} t={t} />
      <Body
        label={t('content.response')}
        text={response}
        truncated={meta.response_truncated === true}
        t={t}
      />
      {meta.response_omitted === true && <Alert severity="info">{t('content.omitted')}</Alert>}
      {Object.keys(headers).length > 0 && (
        <Body
          label={t('content.headers')}
          text={Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}
          truncated={false}
          t={t}
        />
      )}
    </Stack>
  );
}

/** The button of a log row with stored content, and the dialog it opens. */
export function LogContentButton({ id, t }: { id: number; t: TFunction }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        data-testid={`log-content-${id}`}
        aria-label={t('content.open')}
        title={t('content.open')}
        sx={{ minWidth: 0, px: 1, py: 0, lineHeight: 1.6 }}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {t('content.button')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        onClick={(event) => event.stopPropagation()}
        maxWidth="md"
        fullWidth
      >
        <DialogTitle>{t('content.title')}</DialogTitle>
        <DialogContent dividers>{open && <ContentView id={id} t={t} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('content.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
