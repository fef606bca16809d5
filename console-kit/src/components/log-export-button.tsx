import { useRef, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Menu,
  MenuItem,
  Typography,
} from '@mui/material';
import { useConsoleRuntime } from '../provider/console-context';
import { useFeatureTranslation, type LocaleBundles } from '../provider/console-i18n';
import type { LogFilters } from '../lib/log-filters';
import {
  downloadExport,
  logExportUrl,
  progressPercent,
  saveBlob,
  type ExportFormat,
  type ExportProgress,
} from '../lib/log-export';

export const LOG_EXPORT_NAMESPACE = 'logExport';

export const logExportLocales = {
  zh: {
    export: {
      button: '导出',
      csv: '导出 CSV',
      jsonl: '导出 JSON Lines',
      title: '正在导出日志',
      progress: '已导出 {{rows}} / {{total}} 行（{{size}}）',
      progressUnknown: '已导出 {{rows}} 行（{{size}}）',
      done: '已导出 {{rows}} 行',
      failed: '导出失败：{{message}}',
      cancel: '取消',
      close: '关闭',
    },
  },
  en: {
    export: {
      button: 'Export',
      csv: 'Export CSV',
      jsonl: 'Export JSON Lines',
      title: 'Exporting logs',
      progress: '{{rows}} of {{total}} rows exported ({{size}})',
      progressUnknown: '{{rows}} rows exported ({{size}})',
      done: '{{rows}} rows exported',
      failed: 'Export failed: {{message}}',
      cancel: 'Cancel',
      close: 'Close',
    },
  },
} satisfies LocaleBundles;

const size = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

type State =
  | { phase: 'idle' }
  | { phase: 'running'; format: ExportFormat; progress: ExportProgress }
  | { phase: 'done'; rows: number }
  | { phase: 'failed'; message: string };

/** "Export" on the log screen: the filtered view as CSV or JSON Lines, with a progress dialog. */
export function LogExportButton({ filters, admin }: { filters: LogFilters; admin: boolean }) {
  const { t } = useFeatureTranslation(LOG_EXPORT_NAMESPACE, logExportLocales);
  const runtime = useConsoleRuntime();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [state, setState] = useState<State>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);

  const start = (format: ExportFormat) => {
    setAnchor(null);
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: 'running', format, progress: { rows: 0, total: 0, bytes: 0 } });
    downloadExport(
      runtime,
      logExportUrl(filters, admin, format),
      format,
      (progress) => setState({ phase: 'running', format, progress }),
      controller.signal,
    )
      .then(({ blob, name, rows }) => {
        saveBlob(blob, name);
        setState({ phase: 'done', rows });
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) {
          setState({ phase: 'idle' });
          return;
        }
        setState({ phase: 'failed', message: failure instanceof Error ? failure.message : String(failure) });
      });
  };

  const close = () => {
    abort.current?.abort();
    abort.current = null;
    setState({ phase: 'idle' });
  };

  const running = state.phase === 'running' ? state : null;
  const rows = running ? Math.max(0, running.progress.rows - (running.format === 'csv' ? 1 : 0)) : 0;

  return (
    <>
      <Button
        variant="outlined"
        aria-haspopup="menu"
        disabled={state.phase === 'running'}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('export.button')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => start('csv')}>{t('export.csv')}</MenuItem>
        <MenuItem onClick={() => start('jsonl')}>{t('export.jsonl')}</MenuItem>
      </Menu>
      <Dialog open={state.phase !== 'idle'} onClose={close} fullWidth maxWidth="xs">
        <DialogTitle>{t('export.title')}</DialogTitle>
        <DialogContent>
          {running && (
            <>
              <LinearProgress
                variant={running.progress.total > 0 ? 'determinate' : 'indeterminate'}
                value={progressPercent(running.progress, running.format === 'csv')}
                aria-label={t('export.title')}
                sx={{ my: 2 }}
              />
              <Typography variant="body2" data-testid="export-progress">
                {running.progress.total > 0
                  ? t('export.progress', {
                      rows: Math.min(rows, running.progress.total),
                      total: running.progress.total,
                      size: size(running.progress.bytes),
                    })
                  : t('export.progressUnknown', { rows, size: size(running.progress.bytes) })}
              </Typography>
            </>
          )}
          {state.phase === 'done' && (
            <Alert severity="success" data-testid="export-done">
              {t('export.done', { rows: state.rows })}
            </Alert>
          )}
          {state.phase === 'failed' && (
            <Alert severity="error">{t('export.failed', { message: state.message })}</Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>
            {state.phase === 'running' ? t('export.cancel') : t('export.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
