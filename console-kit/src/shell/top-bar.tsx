import { useState } from 'react';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Chip,
  IconButton,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useGetStatusQuery, useLogoutMutation } from '../api/gatehouse-api';
import type { SystemStatus } from '../api/api-types';
import { describeApiError } from '../api/describe-api-error';
import { CONSOLE_LANGUAGES, normalizeLanguage, type ConsoleLanguage } from '../provider/console-i18n';
import { useConsoleStorage, useNotify, useThemeMode } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';
import { useSession } from '../provider/use-session';
import { LanguageIcon, MoonIcon, SunIcon } from './shell-icons';

/** Spec: header height 56 px. */
export const TOP_BAR_HEIGHT = 56;
export const DEFAULT_SYSTEM_NAME = 'Gatehouse';

const LANGUAGE_LABEL_KEYS: Record<ConsoleLanguage, string> = {
  zh: 'shell.languageZh',
  en: 'shell.languageEn',
};

export function TopBar() {
  const { t, i18n } = useTranslation('common');
  const storage = useConsoleStorage();
  const { data: fetched } = useGetStatusQuery();
  // The cached copy lets the name paint before /api/status answers.
  const status = fetched ?? storage.getJson<SystemStatus>(StorageKeys.status);
  const { mode, toggle } = useThemeMode();
  const { user, clear } = useSession();
  const [logout] = useLogoutMutation();
  const notify = useNotify();
  const navigate = useNavigate();
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const currentLanguage = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'zh';

  const signOut = async () => {
    setAccountAnchor(null);
    try {
      await logout().unwrap();
      notify(t('shell.logoutSuccess'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
    // Spec: logout clears the user and goes to /login, whatever the server said.
    clear();
    void navigate('/login');
  };

  return (
    <AppBar position="static" color="default" elevation={1} enableColorOnDark>
      <Toolbar sx={{ minHeight: TOP_BAR_HEIGHT, gap: 1 }} variant="dense">
        <Typography
          variant="h6"
          component={RouterLink}
          to="/"
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 600 }}
        >
          {status?.system_name || DEFAULT_SYSTEM_NAME}
        </Typography>
        {status?.self_use_mode_enabled && (
          <Chip size="small" color="primary" label={t('shell.selfUseMode')} />
        )}
        {status?.demo_site_enabled && <Chip size="small" color="secondary" label={t('shell.demoSite')} />}
        <Box sx={{ flexGrow: 1 }} />

        <Tooltip title={mode === 'dark' ? t('shell.toLightTheme') : t('shell.toDarkTheme')}>
          <IconButton
            color="inherit"
            onClick={toggle}
            aria-label={mode === 'dark' ? t('shell.toLightTheme') : t('shell.toDarkTheme')}
          >
            {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
          </IconButton>
        </Tooltip>

        <Tooltip title={t('shell.language')}>
          <IconButton
            color="inherit"
            aria-label={t('shell.language')}
            aria-haspopup="menu"
            onClick={(event) => setLanguageAnchor(event.currentTarget)}
          >
            <LanguageIcon />
          </IconButton>
        </Tooltip>
        <Menu
          anchorEl={languageAnchor}
          open={languageAnchor !== null}
          onClose={() => setLanguageAnchor(null)}
        >
          {CONSOLE_LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              selected={language === currentLanguage}
              lang={language}
              onClick={() => {
                setLanguageAnchor(null);
                void i18n.changeLanguage(language);
              }}
            >
              {t(LANGUAGE_LABEL_KEYS[language])}
            </MenuItem>
          ))}
        </Menu>

        {user ? (
          <>
            <IconButton
              aria-label={t('shell.accountMenu')}
              aria-haspopup="menu"
              onClick={(event) => setAccountAnchor(event.currentTarget)}
            >
              <Avatar sx={{ width: 32, height: 32, fontSize: 16 }}>
                {user.username.charAt(0).toUpperCase()}
              </Avatar>
            </IconButton>
            <Menu
              anchorEl={accountAnchor}
              open={accountAnchor !== null}
              onClose={() => setAccountAnchor(null)}
            >
              <MenuItem onClick={() => void signOut()}>{t('shell.logout')}</MenuItem>
            </Menu>
          </>
        ) : (
          <Button color="inherit" component={RouterLink} to="/login">
            {t('shell.login')}
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
