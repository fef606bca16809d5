import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <Box sx={{ textAlign: 'center', p: 6 }}>
      <Typography variant="h1" component="p" color="text.secondary" sx={{ fontWeight: 300 }}>
        404
      </Typography>
      <Typography variant="h6" component="h1" gutterBottom>
        {t('notFound.message')}
      </Typography>
      <Button component={RouterLink} to="/">
        {t('notFound.backHome')}
      </Button>
    </Box>
  );
}
