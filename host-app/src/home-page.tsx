import { Box, Typography } from '@mui/material';
import { useFeatureTranslation, useGetStatusQuery } from '@gatehouse/console-kit';
import { DEFAULT_SYSTEM_NAME } from '@gatehouse/console-kit/shell';
import { HOST_NAMESPACE, hostLocales } from './host-locales';

/** A default landing until the home feature (custom home page content, notice) arrives. */
export function HomePage() {
  const { t, i18n } = useFeatureTranslation(HOST_NAMESPACE, hostLocales);
  const { data: status } = useGetStatusQuery();
  const name = status?.system_name || DEFAULT_SYSTEM_NAME;

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', p: { xs: 2, sm: 6 }, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('home.welcome', { name })}
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        {t('home.tagline')}
      </Typography>
      {status?.version && (
        <Typography data-testid="system-version">{t('home.version', { version: status.version })}</Typography>
      )}
      {typeof status?.start_time === 'number' && status.start_time > 0 && (
        <Typography color="text.secondary">
          {t('home.startedAt', { time: new Date(status.start_time * 1000).toLocaleString(i18n.language) })}
        </Typography>
      )}
    </Box>
  );
}
