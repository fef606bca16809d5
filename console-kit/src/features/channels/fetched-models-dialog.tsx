import { useId, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { CHANNELS_NAMESPACE, channelsLocales } from './channels-locales';
import { fetchedModelEntries, initialPick, pickedModels } from './fetched-models';

export interface FetchedModelsDialogProps {
  /** The channel's models when the list was fetched. */
  current: readonly string[];
  /** What the upstream offers. */
  fetched: readonly string[];
  onApply: (models: string[]) => void;
  onClose: () => void;
}

/**
 * Picks from a fetched model list instead of replacing the channel's: the channel's models and the
 * upstream's new ones, all ticked (a merge), with the upstream's absentees marked. Nothing changes
 * until Apply.
 */
export function FetchedModelsDialog({ current, fetched, onApply, onClose }: FetchedModelsDialogProps) {
  const { t } = useFeatureTranslation(CHANNELS_NAMESPACE, channelsLocales);
  const id = useId();
  const entries = useMemo(() => fetchedModelEntries(current, fetched), [current, fetched]);
  const [picked, setPicked] = useState<Set<string>>(() => initialPick(entries));
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? entries.filter((entry) => entry.name.toLowerCase().includes(needle)) : entries;
  const added = entries.filter((entry) => !entry.inChannel).length;
  const missing = entries.filter((entry) => !entry.upstream).length;
  const removed = entries.filter((entry) => entry.inChannel && !picked.has(entry.name)).length;
  const toggle = (name: string) =>
    setPicked((before) => {
      const next = new Set(before);
      if (next.has(name)) {
        next.delete(name);
      } else {
        next.add(name);
      }
      return next;
    });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t('fetchedModels.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={1.5}>
          <Typography variant="body2" data-testid="fetched-models-summary">
            {t('fetchedModels.summary', { fetched: new Set(fetched).size, added, missing })}
          </Typography>
          <TextField
            size="small"
            label={t('fetchedModels.filter')}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button size="small" onClick={() => setPicked(new Set(entries.map((entry) => entry.name)))}>
              {t('fetchedModels.all')}
            </Button>
            <Button
              size="small"
              onClick={() => setPicked(new Set(entries.filter((e) => e.upstream).map((e) => e.name)))}
            >
              {t('fetchedModels.upstreamOnly')}
            </Button>
            <Button
              size="small"
              onClick={() => setPicked(new Set(entries.filter((e) => e.inChannel).map((e) => e.name)))}
            >
              {t('fetchedModels.keepCurrent')}
            </Button>
          </Stack>
          <Box sx={{ maxHeight: 360, overflowY: 'auto' }} data-testid="fetched-models-list">
            {shown.map((entry) => (
              <Stack key={entry.name} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <FormControlLabel
                  sx={{ mr: 0, minWidth: 0, '& .MuiFormControlLabel-label': { wordBreak: 'break-all' } }}
                  control={
                    <Checkbox
                      size="small"
                      checked={picked.has(entry.name)}
                      onChange={() => toggle(entry.name)}
                    />
                  }
                  label={entry.name}
                />
                {!entry.inChannel && <Chip size="small" color="success" label={t('fetchedModels.new')} />}
                {!entry.upstream && (
                  <Chip
                    size="small"
                    color="warning"
                    variant="outlined"
                    label={t('fetchedModels.notUpstream')}
                  />
                )}
              </Stack>
            ))}
          </Box>
          {removed > 0 && (
            <Typography variant="body2" color="warning.main" data-testid="fetched-models-removed">
              {t('fetchedModels.removing', { count: removed })}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('fetchedModels.cancel')}</Button>
        <Button variant="contained" onClick={() => onApply(pickedModels(entries, picked))}>
          {t('fetchedModels.apply', { count: picked.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
