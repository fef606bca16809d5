import { useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { isAdmin } from '../../shell/shell-nav';
import { usePaging } from '../../components/list-page';
import { useCopyText } from '../../provider/clipboard';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import { TaskFilterForm } from '../../components/task-filter-form';
import {
  taskChannelColumn,
  taskDurationColumn,
  TaskRecordLink,
  TaskTable,
  TaskTextLink,
  type TaskColumn,
} from '../../components/task-table';
import { isValidChannelFilter } from '../../lib/log-filters';
import { useListDrawingTasksQuery } from './drawing-api';
import { DRAWING_NAMESPACE, drawingLocales } from './drawing-locales';
import {
  DRAWING_STATUS_COLORS,
  drawingActionKey,
  drawingStatusKey,
  durationSeconds,
  emptyDrawingFilters,
  formatMs,
  progressPercent,
  submitResultKey,
  type DrawingFilters,
  type DrawingTask,
} from './drawing-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** Only web addresses are shown as images or links (never `javascript:` or `data:`). */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value, 'http://invalid.local');
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Drawing log (/midjourney): filters, every column, text modals, image viewer, callback banner. */
export function DrawingLogPage() {
  const { t, i18n } = useFeatureTranslation(DRAWING_NAMESPACE, drawingLocales);
  const { user } = useSession();
  const admin = isAdmin(user);
  const { status } = useSystemStatus();
  const copy = useCopyText();

  const initial = useMemo(() => emptyDrawingFilters(), []);
  const [channelId, setChannelId] = useState('');
  const [mjId, setMjId] = useState('');
  const [start, setStart] = useState<Dayjs | null>(dayjs(initial.startMs));
  const [end, setEnd] = useState<Dayjs | null>(dayjs(initial.endMs));
  const [filters, setFilters] = useState<DrawingFilters>(initial);
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [text, setText] = useState<{ title: string; body: string; mono: boolean } | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const channelInvalid = !isValidChannelFilter(channelId);

  const list = useListDrawingTasksQuery({ filters, admin, page, pageSize });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (channelInvalid) {
      return;
    }
    setFilters({
      channelId,
      mjId,
      startMs: start?.isValid() ? start.valueOf() : 0,
      endMs: end?.isValid() ? end.valueOf() : 0,
    });
    setPage(1);
  };

  const reset = () => {
    const fresh = emptyDrawingFilters();
    setChannelId('');
    setMjId('');
    setStart(dayjs(fresh.startMs));
    setEnd(dayjs(fresh.endMs));
    setFilters(fresh);
    setPage(1);
  };

  // Banner: admins only, and only while the drawing callback is off (status mj_notify_enabled).
  const showCallbackBanner = admin && status !== null && status !== undefined && !status.mj_notify_enabled;

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        {showCallbackBanner && (
          <Alert severity="info" data-testid="mj-callback-banner">
            {t('callbackOff')}
          </Alert>
        )}
        <TaskFilterForm
          t={t}
          language={i18n.language}
          admin={admin}
          channelId={channelId}
          onChannelId={setChannelId}
          idField={{ label: t('filters.mjId'), name: 'mj_id', value: mjId, onChange: setMjId }}
          start={start}
          end={end}
          onStart={setStart}
          onEnd={setEnd}
          onSubmit={submit}
          onReset={reset}
        />

        <TaskTable
          t={t}
          label={t('title')}
          columns={drawingColumns({
            t,
            onCopyChannel: (id) => void copy(String(id), t('row.channelCopied', { value: id })),
            onText: (title, body, mono = false) => setText({ title, body, mono }),
            onImage: setImage,
          })}
          admin={admin}
          rowTestId="drawing-row"
          query={list}
          paging={paging}
        />
      </Stack>

      <Dialog open={text !== null} onClose={() => setText(null)} fullWidth maxWidth="sm">
        <DialogTitle>{text?.title}</DialogTitle>
        <DialogContent>
          <Typography
            component="pre"
            sx={{
              m: 0,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              fontFamily: text?.mono ? 'monospace' : 'inherit',
            }}
            data-testid="drawing-text"
          >
            {text?.body}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setText(null)}>{t('modal.close')}</Button>
        </DialogActions>
      </Dialog>
      <ImageViewer url={image} onClose={() => setImage(null)} t={t} />
    </Box>
  );
}

function ImageViewer({ url, onClose, t }: { url: string | null; onClose: () => void; t: Translate }) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Dialog open={url !== null} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>{t('modal.image')}</DialogTitle>
      <DialogContent sx={{ textAlign: 'center' }}>
        {url && failed === url ? (
          <Alert severity="warning">{t('modal.imageFailed')}</Alert>
        ) : (
          url && (
            <Box
              component="img"
              src={url}
              alt={t('modal.image')}
              referrerPolicy="no-referrer"
              onError={() => setFailed(url)}
              sx={{ maxWidth: '100%', maxHeight: '75vh', objectFit: 'contain' }}
              data-testid="image-viewer"
            />
          )
        )}
      </DialogContent>
      <DialogActions>
        {url && (
          <Button component="a" href={url} target="_blank" rel="noopener noreferrer">
            {t('modal.openOriginal')}
          </Button>
        )}
        <Button onClick={onClose}>{t('modal.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

interface DrawingCellActions {
  t: Translate;
  onCopyChannel: (id: number) => void;
  onText: (title: string, body: string, mono?: boolean) => void;
  onImage: (url: string) => void;
}

/** The table's columns in order (`channel` for admins only); headers read `columns.<key>`. */
function drawingColumns({
  t,
  onCopyChannel,
  onText,
  onImage,
}: DrawingCellActions): TaskColumn<DrawingTask>[] {
  const textCell = (value: string, title: string) => (
    <TaskTextLink text={value} t={t} onOpen={() => onText(title, value)} />
  );
  return [
    { key: 'submitTime', sx: { whiteSpace: 'nowrap' }, cell: (task) => formatMs(task.submit_time) },
    taskDurationColumn((task) => durationSeconds(task.submit_time, task.finish_time), t),
    taskChannelColumn(t, onCopyChannel),
    {
      key: 'action',
      cell: (task) => (
        <Chip size="small" variant="outlined" label={t(`action.${drawingActionKey(task.action)}`)} />
      ),
    },
    {
      key: 'mjId',
      cell: (task) => (
        <TaskRecordLink
          id={task.mj_id}
          t={t}
          onOpen={() => onText(t('modal.record'), JSON.stringify(task, null, 2), true)}
        />
      ),
    },
    {
      key: 'code',
      phone: 'hide',
      cell: (task) => (
        <Chip
          size="small"
          variant="outlined"
          color={task.code === 1 ? 'success' : task.code === 21 || task.code === 22 ? 'warning' : 'default'}
          label={t(`code.${submitResultKey(task.code)}`)}
        />
      ),
    },
    {
      key: 'status',
      cell: (task) => {
        const statusKey = drawingStatusKey(task.status);
        return (
          <Chip size="small" color={DRAWING_STATUS_COLORS[statusKey]} label={t(`status.${statusKey}`)} />
        );
      },
    },
    {
      key: 'progress',
      sx: { minWidth: 100 },
      cell: (task) => (
        <Stack spacing={0.5}>
          <LinearProgress
            variant="determinate"
            value={progressPercent(task.progress)}
            color={task.status === 'FAILURE' ? 'warning' : 'primary'}
            aria-label={t('columns.progress')}
          />
          <Typography variant="caption">{task.progress || '0%'}</Typography>
        </Stack>
      ),
    },
    {
      key: 'image',
      cell: (task) =>
        task.image_url && isWebUrl(task.image_url) ? (
          <Button size="small" onClick={() => onImage(task.image_url)}>
            {t('row.viewImage')}
          </Button>
        ) : (
          t('row.none')
        ),
    },
    { key: 'prompt', phone: 'wide', cell: (task) => textCell(task.prompt, t('modal.prompt')) },
    { key: 'promptEn', phone: 'hide', cell: (task) => textCell(task.prompt_en, t('columns.promptEn')) },
    { key: 'failReason', cell: (task) => textCell(task.fail_reason, t('modal.failReason')) },
  ];
}
