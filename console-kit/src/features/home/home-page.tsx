import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import { consoleHomePath } from '../../shell/shell-nav';
import { useGetHomePageContentQuery } from './home-api';
import { HOME_NAMESPACE, homeLocales } from './home-locales';
import { SiteTextView } from '../../components/site-text-view';

const PRODUCT_NAME = 'Gatehouse';

/** The default landing when no home page content is set: name, links, version, start time. */
export function DefaultLanding() {
  const { t, i18n } = useFeatureTranslation(HOME_NAMESPACE, homeLocales);
  const { status } = useSystemStatus();
  const { user } = useSession();
  const name = status?.system_name || PRODUCT_NAME;
  const docs =
    typeof status?.docs_link === 'string' && /^https?:\/\//i.test(status.docs_link) ? status.docs_link : '';

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', p: { xs: 3, sm: 6 }, textAlign: 'center' }}>
      {status?.logo && (
        <Box
          component="img"
          src={status.logo}
          alt=""
          sx={{ width: 72, height: 72, objectFit: 'contain', mb: 2 }}
        />
      )}
      <Typography variant="h4" component="h1" gutterBottom>
        {t('welcome', { name })}
      </Typography>
      <Typography color="text.secondary" gutterBottom>
        {t('tagline')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', my: 3 }}>
        {user ? (
          <Button variant="contained" component={RouterLink} to={consoleHomePath(status)}>
            {t('openConsole')}
          </Button>
        ) : (
          <Button variant="contained" component={RouterLink} to="/login">
            {t('login')}
          </Button>
        )}
        {docs && (
          <Button variant="outlined" href={docs} target="_blank" rel="noopener noreferrer">
            {t('docs')}
          </Button>
        )}
      </Stack>
      {status?.version && (
        <Typography data-testid="system-version">{t('version', { version: status.version })}</Typography>
      )}
      {typeof status?.start_time === 'number' && status.start_time > 0 && (
        <Typography color="text.secondary">
          {t('startedAt', { time: new Date(status.start_time * 1000).toLocaleString(i18n.language) })}
        </Typography>
      )}
    </Box>
  );
}

/** docs/decisions.md#home-notice-footer: HomePageContent as sanitized markdown/HTML, an iframe when it is a URL, else the landing. */
export function HomePage() {
  const { t } = useFeatureTranslation(HOME_NAMESPACE, homeLocales);
  const { data, isLoading } = useGetHomePageContentQuery();
  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('frameTitle')} />
      </Box>
    );
  }
  const content = typeof data === 'string' ? data.trim() : '';
  if (!content) {
    return <DefaultLanding />;
  }
  return <SiteTextView text={content} frameTitle={t('frameTitle')} testId="home-content" />;
}
