import { Button, FormControlLabel, Stack, Switch } from '@mui/material';
import type { useFeatureTranslation } from '../../provider/console-i18n';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

export interface ChannelsToolbarProps {
  t: Translate;
  onAdd: () => void;
  onTestAll: () => void;
  onUpdateBalances: () => void;
  onBatchTag: () => void;
  onColumns: () => void;
  onRefresh: () => void;
  onFix: () => void;
  onBatchDelete: () => void;
  onDeleteDisabled: () => void;
  idSort: boolean;
  onIdSort: (on: boolean) => void;
  tagMode: boolean;
  onTagMode: (on: boolean) => void;
}

/**
 * The buttons above the channel table, in the console's order: create first, then the routine runs and
 * view choices, the destructive ones (each asks first) last, then the two switches. The row wraps on
 * narrow screens.
 */
export function ChannelsToolbar(props: ChannelsToolbarProps) {
  const { t } = props;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <Button variant="contained" onClick={props.onAdd}>
        {t('toolbar.add')}
      </Button>
      <Button variant="outlined" onClick={props.onTestAll}>
        {t('toolbar.testAll')}
      </Button>
      <Button variant="outlined" onClick={props.onUpdateBalances}>
        {t('toolbar.updateAllBalances')}
      </Button>
      <Button variant="outlined" onClick={props.onBatchTag}>
        {t('toolbar.batchTag')}
      </Button>
      <Button variant="outlined" onClick={props.onColumns}>
        {t('toolbar.columns')}
      </Button>
      <Button variant="outlined" onClick={props.onFix}>
        {t('toolbar.fix')}
      </Button>
      <Button variant="outlined" color="error" onClick={props.onBatchDelete}>
        {t('toolbar.batchDelete')}
      </Button>
      <Button variant="outlined" color="error" onClick={props.onDeleteDisabled}>
        {t('toolbar.deleteDisabled')}
      </Button>
      <Button onClick={props.onRefresh}>{t('toolbar.refresh')}</Button>
      <FormControlLabel
        control={<Switch checked={props.idSort} onChange={(event) => props.onIdSort(event.target.checked)} />}
        label={t('toolbar.idSort')}
      />
      <FormControlLabel
        control={
          <Switch checked={props.tagMode} onChange={(event) => props.onTagMode(event.target.checked)} />
        }
        label={t('toolbar.tagMode')}
      />
    </Stack>
  );
}
