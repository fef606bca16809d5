import { useMemo, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
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
import { channelColor, durationColor, progressPercent } from '../../lib/task-display';
import { TaskFilterForm } from '../../components/task-filter-form';
import { isValidChannelFilter } from '../../lib/log-filters';
import { useListGenericTasksQuery } from './task-api';
import { TASK_LOG_NAMESPACE, taskLocales } from './task-locales';
import {
  emptyTaskFilters,
  formatSeconds,
  TASK_STATUS_COLORS,
  taskActionKey,
  taskDurationSeconds,
  taskPlatformKey,
  taskStatusKey,
  type GenericTask,
  type TaskFilters,
} from './task-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** The table's columns in order (`channel` for admins only); headers read `columns.<key>`. */
const TASK_COLUMNS = [
  'submitTime',
  'finishTime',
  'progress',
  'duration',
  'channel',
  'platform',
  'action',
  'taskId',
  'status',
  'failReason',
] as const;

/** Task log (/task): filters, every column, the record modal and the failure-reason modal. */
export function TaskLogPage() {
  const { t, i18n } = useFeatureTranslation(TASK_LOG_NAMESPACE, taskLocales);
  const { user } = useSession();
  const admin = isAdmin(user);
  const copy = useCopyText();

  const initial = useMemo(() => emptyTaskFilters(), []);
  const [channelId, setChannelId] = useState('');
  const [taskId, setTaskId] = useState('');
  const [start, setStart] = useState<Dayjs | null>(dayjs.unix(initial.start));
  const [end, setEnd] = useState<Dayjs | null>(null);
  const [filters, setFilters] = useState<TaskFilters>(initial);
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [modal, setModal] = useState<{ title: string; body: string; mono: boolean } | null>(null);
  const channelInvalid = !isValidChannelFilter(channelId);

  const list = useListGenericTasksQuery({ filters, admin, page, pageSize });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (channelInvalid) {
      return;
    }
    setFilters({
      channelId,
      taskId,
      start: start?.isValid() ? start.unix() : 0,
      end: end?.isValid() ? end.unix() : 0,
    });
    setPage(1);
  };

  const reset = () => {
    const fresh = emptyTaskFilters();
    setChannelId('');
    setTaskId('');
    setStart(dayjs.unix(fresh.start));
    setEnd(null);
    setFilters(fresh);
    setPage(1);
  };

  const items = list.data?.items ?? [];

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <TaskFilterForm
          t={t}
          language={i18n.language}
          admin={admin}
          channelId={channelId}
          onChannelId={setChannelId}
          idField={{ label: t('filters.taskId'), name: 'task_id', value: taskId, onChange: setTaskId }}
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
          columns={admin ? TASK_COLUMNS : TASK_COLUMNS.filter((key) => key !== 'channel')}
          phoneColumns={{ finishTime: 'hide', duration: 'hide' }}
          query={list}
          paging={paging}
        >
          {items.map((task) => (
            <TaskRow
              key={task.id}
              task={task}
              admin={admin}
              t={t}
              onCopyChannel={(id) => void copy(String(id), t('row.channelCopied', { value: id }))}
              onRecord={() =>
                setModal({ title: t('modal.record'), body: JSON.stringify(task, null, 2), mono: true })
              }
              onFailReason={() =>
                setModal({ title: t('modal.failReason'), body: task.fail_reason, mono: false })
              }
            />
          ))}
        </ListTable>
      </Stack>

      <Dialog open={modal !== null} onClose={() => setModal(null)} fullWidth maxWidth="md">
        <DialogTitle>{modal?.title}</DialogTitle>
        <DialogContent>
          <Box
            component="pre"
            data-testid="task-modal-text"
            sx={{
              m: 0,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              fontFamily: modal?.mono ? 'monospace' : 'inherit',
              fontSize: modal?.mono ? 13 : 'inherit',
            }}
          >
            {modal?.body}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setModal(null)}>{t('modal.close')}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

interface TaskRowProps {
  task: GenericTask;
  admin: boolean;
  t: Translate;
  onCopyChannel: (id: number) => void;
  onRecord: () => void;
  onFailReason: () => void;
}

function TaskRow({ task, admin, t, onCopyChannel, onRecord, onFailReason }: TaskRowProps) {
  const seconds = taskDurationSeconds(task.submit_time, task.finish_time);
  const statusKey = taskStatusKey(task.status);
  const percent = progressPercent(task.progress);
  return (
    <TableRow data-testid={`task-row-${task.id}`}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatSeconds(task.submit_time)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatSeconds(task.finish_time)}</TableCell>
      <TableCell>
        <Box sx={{ position: 'relative', display: 'inline-flex' }}>
          <CircularProgress
            variant="determinate"
            value={percent}
            size={40}
            color={task.status === 'FAILURE' ? 'error' : task.status === 'SUCCESS' ? 'success' : 'primary'}
            aria-label={t('columns.progress')}
          />
          <Box
            sx={{
              inset: 0,
              position: 'absolute',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            <Typography variant="caption" sx={{ fontSize: 10 }}>{`${Math.round(percent)}%`}</Typography>
          </Box>
        </Box>
      </TableCell>
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
        <Chip size="small" variant="outlined" label={t(`platform.${taskPlatformKey(task.platform)}`)} />
      </TableCell>
      <TableCell>
        <Chip size="small" variant="outlined" label={t(`action.${taskActionKey(task.action)}`)} />
      </TableCell>
      <TableCell>
        <Tooltip title={t('row.showRecord')}>
          <Link component="button" type="button" onClick={onRecord} sx={{ fontFamily: 'monospace' }}>
            {task.task_id}
          </Link>
        </Tooltip>
      </TableCell>
      <TableCell>
        <Chip size="small" color={TASK_STATUS_COLORS[statusKey]} label={t(`status.${statusKey}`)} />
      </TableCell>
      <TableCell>
        {task.fail_reason ? (
          <Tooltip title={t('row.showFull')}>
            <Link
              component="button"
              type="button"
              onClick={onFailReason}
              sx={{
                maxWidth: 200,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                display: 'block',
              }}
            >
              {task.fail_reason}
            </Link>
          </Tooltip>
        ) : (
          t('row.none')
        )}
      </TableCell>
    </TableRow>
  );
}
