import { useState } from 'react';
import { Alert, Box, Card, CircularProgress, Tab, Tabs, Typography } from '@mui/material';
import { useGetSelfQuery } from '../../api/gatehouse-api';
import { describeApiError } from '../../api/describe-api-error';
import { SelfBudgetCard } from '../../components/budget-usage';
import { AvailableModels } from './available-models';
import { BindingsPanel } from './bindings-panel';
import { InviteCard } from './invite-card';
import { NotificationPanel } from './notification-panel';
import { PricePanel } from './price-panel';
import { ProfileCard } from './profile-card';
import { SecurityPanel } from './security-panel';
import { usePersonalTranslation } from './use-personal-translation';

const TABS = ['bindings', 'security', 'notification', 'price'] as const;
type PersonalTab = (typeof TABS)[number];

/**
 * Personal settings (docs/decisions.md#personal-page): profile card, invitations, available models, and tabs for
 * bindings, security (access token, password, deletion), notifications and pricing. Needs a signed-in
 * user; mount it behind RequireAuth or under the portal's own sign-in.
 */
export function PersonalSettingsPage() {
  const { t } = usePersonalTranslation();
  const { data: self, isLoading, error } = useGetSelfQuery();
  const [tab, setTab] = useState<PersonalTab>('bindings');

  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('title')} />
      </Box>
    );
  }
  if (error || !self) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(error, t, t('loadFailed'))}</Alert>
      </Box>
    );
  }

  return (
    // The same padding as every other page, left-aligned like them.
    <Box sx={{ p: { xs: 1, sm: 3 }, maxWidth: 1200 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 5fr) minmax(0, 7fr)' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'grid', gap: 2 }}>
          <ProfileCard self={self} />
          <InviteCard self={self} />
          <SelfBudgetCard />
          <AvailableModels />
        </Box>
        <Card>
          <Tabs
            value={tab}
            onChange={(_event, value: PersonalTab) => setTab(value)}
            variant="scrollable"
            allowScrollButtonsMobile
            sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
          >
            {TABS.map((id) => (
              <Tab
                key={id}
                value={id}
                label={t(`tabs.${id}`)}
                id={`personal-tab-${id}`}
                aria-controls={`personal-panel-${id}`}
              />
            ))}
          </Tabs>
          <Box
            role="tabpanel"
            id={`personal-panel-${tab}`}
            aria-labelledby={`personal-tab-${tab}`}
            sx={{ px: { xs: 2, sm: 3 }, py: 1 }}
          >
            {tab === 'bindings' && <BindingsPanel self={self} />}
            {tab === 'security' && <SecurityPanel self={self} />}
            {tab === 'notification' && <NotificationPanel key={self.setting ?? ''} self={self} />}
            {tab === 'price' && <PricePanel key={self.setting ?? ''} self={self} />}
          </Box>
        </Card>
      </Box>
    </Box>
  );
}
