import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, Typography } from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useCopyText } from '../../provider/clipboard';
import { useConsoleStorage } from '../../provider/console-context';
import { StorageKeys } from '../../provider/console-storage';
import { useGetSelfModelsQuery } from './personal-api';
import { MODELS_COLLAPSED_COUNT } from './personal-rules';
import { usePersonalTranslation } from './use-personal-translation';

/** The models the user may call; past 10 they collapse behind "show more" (choice remembered). */
export function AvailableModels() {
  const { t } = usePersonalTranslation();
  const storage = useConsoleStorage();
  const copyText = useCopyText();
  const { data: models, isLoading, error } = useGetSelfModelsQuery();
  const [expanded, setExpanded] = useState(() => storage.getItem(StorageKeys.modelsExpanded) === 'true');
  const list = models ?? [];
  const shown = expanded ? list : list.slice(0, MODELS_COLLAPSED_COUNT);
  const hidden = list.length - shown.length;

  const toggle = () => {
    storage.setItem(StorageKeys.modelsExpanded, String(!expanded));
    setExpanded(!expanded);
  };

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('models.title')}
          {list.length > 0 && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              ({list.length})
            </Typography>
          )}
        </Typography>
        {isLoading && <CircularProgress size={24} />}
        {error && <Alert severity="error">{describeApiError(error, t)}</Alert>}
        {!isLoading && !error && list.length === 0 && (
          <Typography color="text.secondary">{t('models.empty')}</Typography>
        )}
        <Box data-testid="available-models" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {shown.map((model) => (
            <Chip
              key={model}
              label={model}
              size="small"
              variant="outlined"
              onClick={() => void copyText(model, t('models.copied', { model }))}
            />
          ))}
        </Box>
        {list.length > MODELS_COLLAPSED_COUNT && (
          <Button size="small" onClick={toggle} sx={{ mt: 1 }} aria-expanded={expanded}>
            {expanded ? t('models.less') : t('models.more', { count: hidden })}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
