import type { Dispatch, FormEvent, SetStateAction } from 'react';
import { Autocomplete, Button, MenuItem, Paper, Stack, TextField } from '@mui/material';
import type { useFeatureTranslation } from '../../provider/console-i18n';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** What the channel search form holds: keyword, group, model and status ('', 'enabled', 'disabled'). */
export interface ChannelFilters {
  keyword: string;
  group: string;
  model: string;
  status: string;
}

export const BLANK_CHANNEL_FILTERS: ChannelFilters = { keyword: '', group: '', model: '', status: '' };

export interface ChannelsFiltersProps {
  t: Translate;
  draft: ChannelFilters;
  setDraft: Dispatch<SetStateAction<ChannelFilters>>;
  /** The group choices. */
  groups: readonly string[];
  /** The model suggestions (enabled models). */
  models: readonly string[];
  modelsFailed: boolean;
  onSearch: () => void;
  onReset: () => void;
}

/** The channel search form: keyword, group, model (free text with suggestions), status. */
export function ChannelsFilters({
  t,
  draft,
  setDraft,
  groups,
  models,
  modelsFailed,
  onSearch,
  onReset,
}: ChannelsFiltersProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <Paper component="form" role="search" onSubmit={submit} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <TextField
          label={t('search.keyword')}
          placeholder={t('search.keywordPlaceholder')}
          name="keyword"
          size="small"
          value={draft.keyword}
          onChange={(event) => setDraft({ ...draft, keyword: event.target.value })}
          sx={{ flexGrow: 1 }}
        />
        <TextField
          select
          label={t('search.group')}
          size="small"
          value={draft.group}
          onChange={(event) => setDraft({ ...draft, group: event.target.value })}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('search.allGroups')}</MenuItem>
          {groups.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <Autocomplete
          freeSolo
          options={models}
          inputValue={draft.model}
          onInputChange={(_event, value) => setDraft((current) => ({ ...current, model: value }))}
          sx={{ minWidth: 180 }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('search.model')}
              placeholder={t('search.modelPlaceholder')}
              name="model"
              size="small"
              helperText={modelsFailed ? t('search.modelsFailed') : undefined}
            />
          )}
        />
        <TextField
          select
          label={t('search.status')}
          size="small"
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value })}
          sx={{ minWidth: 120 }}
        >
          <MenuItem value="">{t('search.allStatus')}</MenuItem>
          <MenuItem value="enabled">{t('status.enabled')}</MenuItem>
          <MenuItem value="disabled">{t('status.disabled')}</MenuItem>
        </TextField>
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained">
            {t('search.submit')}
          </Button>
          <Button onClick={onReset}>{t('search.reset')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
