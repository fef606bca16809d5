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
  Link,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { isAdmin } from '../../shell/shell-nav';
import { ListTable, usePaging } from '../../components/list-page';
import { useCopyText } from '../../provider/clipboard';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import { TaskFilterForm } from '../../components/task-filter-form';
import { isValidChannelFilter } from '../../lib/log-filters';
import { useListDrawingTasksQuery } from './drawing-api';
import { DRAWING_NAMESPACE, drawingLocales } from './drawing-locales';
import {
  channelColor,
  DRAWING_STATUS_COLORS,
  drawingActionKey,
  drawingStatusKey,
  durationColor,
  durationSeconds,
  emptyDrawingFilters,
  formatMs,
  progressPercent,
  submitResultKey,
  type DrawingFilters,
  type DrawingTask,
} from './drawing-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** The table's columns in order (`channel` for admins only); headers read `columns.<key>`. */
const DRAWING_COLUMNS = [
  'submitTime',
  'duration',
  'channel',
  'action',
  'mjId',
  'code',
  'status',
  'progress',
  'image',
  'prompt',
  'promptEn',
  'failReason',
] as const;

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

  const items = list.data?.items ?? [];
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

        <ListTable
          t={t}
          label={t('title')}
          columns={admin ? DRAWING_COLUMNS : DRAWING_COLUMNS.filter((key) => key !== 'channel')}
          phoneColumns={{ duration: 'hide', code: 'hide', prompt: 'wide', promptEn: 'hide' }}
          query={list}
          paging={paging}
        >
          {items.map((task) => (
            <DrawingRow
              key={task.id}
              task={task}
              admin={admin}
              t={t}
              onCopyChannel={(id) => void copy(String(id), t('row.channelCopied', { value: id }))}
              onText={(title, body, mono = false) => setText({ title, body, mono })}
              onImage={setImage}
            />
          ))}
        </ListTable>
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

interface DrawingRowProps {
  task: DrawingTask;
  admin: boolean;
  t: Translate;
  onCopyChannel: (id: number) => void;
  onText: (title: string, body: string, mono?: boolean) => void;
  onImage: (url: string) => void;
}

const clip = { maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

function DrawingRow({ task, admin, t, onCopyChannel, onText, onImage }: DrawingRowProps) {
  const seconds = durationSeconds(task.submit_time, task.finish_time);
  const statusKey = drawingStatusKey(task.status);
  const percent = progressPercent(task.progress);
  const textCell = (value: string, title: string) =>
    value ? (
      <Tooltip title={t('row.showFull')}>
        <Link
          component="button"
          type="button"
          onClick={() => onText(title, value)}
          sx={{ ...clip, display: 'block' }}
        >
          {value}
        </Link>
      </Tooltip>
    ) : (
      t('row.none')
    );
  return (
    <TableRow data-testid={`drawing-row-${task.id}`}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMs(task.submit_time)}</TableCell>
      <TableCell>
        {seconds !== null && (
          <Chip size="small" color={durationColor(seconds)} label={t('row.seconds', { value: seconds })} />
        )}
      </TableCell>
      {admin && (
        <TableCell>
          {task.channel_id !== undefined && (
            <Tooltip title={t('row.copyChannel')}>
              <Chip
                size="small"
                color={channelColor(task.channel_id)}
                label={task.channel_id}
                onClick={() => onCopyChannel(task.channel_id ?? 0)}
              />
            </Tooltip>
          )}
        </TableCell>
      )}
      <TableCell>
        <Chip size="small" variant="outlined" label={t(`action.${drawingActionKey(task.action)}`)} />
      </TableCell>
      <TableCell>
        <Tooltip title={t('row.showRecord')}>
          <Link
            component="button"
            type="button"
            sx={{ fontFamily: 'monospace' }}
            onClick={() => onText(t('modal.record'), JSON.stringify(task, null, 2), true)}
          >
            {task.mj_id}
          </Link>
        </Tooltip>
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={task.code === 1 ? 'success' : task.code === 21 || task.code === 22 ? 'warning' : 'default'}
          label={t(`code.${submitResultKey(task.code)}`)}
        />
      </TableCell>
      <TableCell>
        <Chip size="small" color={DRAWING_STATUS_COLORS[statusKey]} label={t(`status.${statusKey}`)} />
      </TableCell>
      <TableCell sx={{ minWidth: 100 }}>
        <Stack spacing={0.5}>
          <LinearProgress
            variant="determinate"
            value={percent}
            color={task.status === 'FAILURE' ? 'warning' : 'primary'}
            aria-label={t('columns.progress')}
          />
          <Typography variant="caption">{task.progress || '0%'}</Typography>
        </Stack>
      </TableCell>
      <TableCell>
        {task.image_url && isWebUrl(task.image_url) ? (
          <Button size="small" onClick={() => onImage(task.image_url)}>
            {t('row.viewImage')}
          </Button>
        ) : (
          t('row.none')
        )}
      </TableCell>
      <TableCell>{textCell(task.prompt, t('modal.prompt'))}</TableCell>
      <TableCell>{textCell(task.prompt_en, t('columns.promptEn'))}</TableCell>
      <TableCell>{textCell(task.fail_reason, t('modal.failReason'))}</TableCell>
    </TableRow>
  );
}
