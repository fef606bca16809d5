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
  Stack,
  Typography,
} from '@mui/material';
import dayjs, { type Dayjs } from 'dayjs';
import { isAdmin } from '../../shell/shell-nav';
import { usePaging } from '../../components/list-page';
import { useCopyText } from '../../provider/clipboard';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { progressPercent } from '../../lib/task-display';
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

        <TaskTable
          t={t}
          label={t('title')}
          columns={taskColumns({
            t,
            onCopyChannel: (id) => void copy(String(id), t('row.channelCopied', { value: id })),
            onText: (title, body, mono) => setModal({ title, body, mono }),
          })}
          admin={admin}
          rowTestId="task-row"
          query={list}
          paging={paging}
        />
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

interface TaskCellActions {
  t: Translate;
  onCopyChannel: (id: number) => void;
  onText: (title: string, body: string, mono: boolean) => void;
}

/** The table's columns in order (`channel` for admins only); headers read `columns.<key>`. */
function taskColumns({ t, onCopyChannel, onText }: TaskCellActions): TaskColumn<GenericTask>[] {
  return [
    { key: 'submitTime', sx: { whiteSpace: 'nowrap' }, cell: (task) => formatSeconds(task.submit_time) },
    {
      key: 'finishTime',
      sx: { whiteSpace: 'nowrap' },
      phone: 'hide',
      cell: (task) => formatSeconds(task.finish_time),
    },
    { key: 'progress', cell: (task) => <TaskProgress task={task} t={t} /> },
    taskDurationColumn((task) => taskDurationSeconds(task.submit_time, task.finish_time), t),
    taskChannelColumn(t, onCopyChannel),
    {
      key: 'platform',
      cell: (task) => (
        <Chip size="small" variant="outlined" label={t(`platform.${taskPlatformKey(task.platform)}`)} />
      ),
    },
    {
      key: 'action',
      cell: (task) => (
        <Chip size="small" variant="outlined" label={t(`action.${taskActionKey(task.action)}`)} />
      ),
    },
    {
      key: 'taskId',
      cell: (task) => (
        <TaskRecordLink
          id={task.task_id}
          t={t}
          onOpen={() => onText(t('modal.record'), JSON.stringify(task, null, 2), true)}
        />
      ),
    },
    {
      key: 'status',
      cell: (task) => {
        const statusKey = taskStatusKey(task.status);
        return <Chip size="small" color={TASK_STATUS_COLORS[statusKey]} label={t(`status.${statusKey}`)} />;
      },
    },
    {
      key: 'failReason',
      cell: (task) => (
        <TaskTextLink
          text={task.fail_reason}
          t={t}
          onOpen={() => onText(t('modal.failReason'), task.fail_reason, false)}
        />
      ),
    },
  ];
}

/** The task's progress as a ring with the percentage inside. */
function TaskProgress({ task, t }: { task: GenericTask; t: Translate }) {
  const percent = progressPercent(task.progress);
  return (
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
  );
}
