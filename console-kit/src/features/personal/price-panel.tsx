import { useState } from 'react';
import { Alert, Box, Button, FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import type { SelfUser } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useUpdateUserSettingMutation } from './personal-api';
import { parseUserSetting } from './personal-rules';
import { usePersonalTranslation } from './use-personal-translation';

/** Whether models without a price may be called (accept_unset_model_ratio_model). */
export function PricePanel({ self }: { self: SelfUser }) {
  const { t } = usePersonalTranslation();
  const notify = useNotify();
  const [save, { isLoading }] = useUpdateUserSettingMutation();
  const [accept, setAccept] = useState(() => parseUserSetting(self.setting).accept_unset_model_ratio_model);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    try {
      await save({ accept_unset_model_ratio_model: accept }).unwrap();
      notify(t('price.success'), 'success');
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <FormControlLabel
        control={
          <Switch
            checked={accept}
            onChange={(event) => setAccept(event.target.checked)}
            name="accept_unset_model_ratio_model"
          />
        }
        label={t('price.acceptUnset')}
      />
      <Typography variant="body2" color="text.secondary">
        {t('price.acceptUnsetHint')}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button variant="contained" onClick={() => void submit()} disabled={isLoading}>
          {t('price.save')}
        </Button>
      </Box>
    </Stack>
  );
}
