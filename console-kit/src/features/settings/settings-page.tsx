import type { ReactNode } from 'react';
import { Alert, Box, CircularProgress, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { UserRole } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useSession } from '../../provider/use-session';
import { ModelSettings, RateLimitSettings } from './model-settings';
import { OperationSettings } from './operation-settings';
import { useOptionValues, type OptionValues } from './options-api';
import { OtherSettings } from './other-settings';
import { useSettingsTranslation } from './settings-locales';
import { SystemSettings } from './system-settings';

export const SETTINGS_TABS = ['operation', 'ratelimit', 'models', 'system', 'other'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The tab named by `?tab=`; operation when missing or unknown. */
export function settingsTabOf(value: string | null): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'operation';
}

const TAB_CONTENT: Record<SettingsTab, (props: { options: OptionValues }) => ReactNode> = {
  operation: OperationSettings,
  ratelimit: RateLimitSettings,
  models: ModelSettings,
  system: SystemSettings,
  other: OtherSettings,
};

/** Admin settings with tabs kept in the address (`?tab=`). */
export function SettingsPage() {
  const { t } = useSettingsTranslation();
  const { user } = useSession();
  if (!user || user.role < UserRole.admin) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('adminOnly')}</Alert>
      </Box>
    );
  }
  return <SettingsTabs />;
}

function SettingsTabs() {
  const { t } = useSettingsTranslation();
  const [params, setParams] = useSearchParams();
  const tab = settingsTabOf(params.get('tab'));
  const Content = TAB_CONTENT[tab];
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Tabs
          value={tab}
          variant="scrollable"
          allowScrollButtonsMobile
          onChange={(_event, value: SettingsTab) =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              next.set('tab', value);
              return next;
            })
          }
        >
          {SETTINGS_TABS.map((value) => (
            <Tab key={value} value={value} label={t(`tabs.${value}`)} />
          ))}
        </Tabs>
        <SettingsOptions>{(options) => <Content options={options} />}</SettingsOptions>
      </Stack>
    </Box>
  );
}

/** Loads the options once for whatever tab (or single panel) is shown. */
export function SettingsOptions({ children }: { children: (options: OptionValues) => ReactNode }) {
  const { t } = useSettingsTranslation();
  const options = useOptionValues();
  if (options.isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('title')} />
      </Box>
    );
  }
  if (options.error) {
    return <Alert severity="error">{describeApiError(options.error, t, t('loadFailed'))}</Alert>;
  }
  return <>{children(options)}</>;
}
