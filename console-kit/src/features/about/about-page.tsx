import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { SiteTextView } from '../../components/site-text-view';
import { useGetAboutQuery } from './about-api';
import { ABOUT_NAMESPACE, aboutLocales } from './about-locales';

const PRODUCT_NAME = 'Gatehouse';

/** The admin's about text (sanitized markdown/HTML, or a URL in an iframe); a default note when empty. */
export function AboutPage() {
  const { t } = useFeatureTranslation(ABOUT_NAMESPACE, aboutLocales);
  const { status } = useSystemStatus();
  const { data, isLoading, error } = useGetAboutQuery();

  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('title')} />
      </Box>
    );
  }
  if (error) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(error, t, t('loadFailed'))}</Alert>
      </Box>
    );
  }
  const content = typeof data === 'string' ? data.trim() : '';
  if (content) {
    return <SiteTextView text={content} frameTitle={t('frameTitle')} testId="about-content" />;
  }
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Typography gutterBottom>{t('empty')}</Typography>
        <Typography color="text.secondary" gutterBottom>
          {t('hint')}
        </Typography>
        <Typography color="text.secondary">{t('product', { product: PRODUCT_NAME })}</Typography>
        {status?.version && (
          <Typography color="text.secondary">{t('version', { version: status.version })}</Typography>
        )}
      </Paper>
    </Box>
  );
}
