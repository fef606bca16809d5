import { useCallback, useState } from 'react';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Chip,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useLogoutMutation } from '../api/gatehouse-api';
import { describeApiError } from '../api/describe-api-error';
import { CONSOLE_LANGUAGES, normalizeLanguage, type ConsoleLanguage } from '../provider/console-i18n';
import { useNotify, useThemeMode } from '../provider/console-context';
import { useSession } from '../provider/use-session';
import { useSystemStatus } from '../provider/use-system-status';
import { Fireworks } from './fireworks';
import { buildTopNavLinks, isNewYearsDay } from './shell-nav';
import {
  CelebrationIcon,
  LanguageIcon,
  LogoutIcon,
  MenuIcon,
  MoonIcon,
  NavItemIcon,
  OpenInNewIcon,
  SunIcon,
} from './shell-icons';

/** Spec: header height 56 px. */
export const TOP_BAR_HEIGHT = 56;
export const DEFAULT_SYSTEM_NAME = 'Gatehouse';

const LANGUAGE_LABEL_KEYS: Record<ConsoleLanguage, string> = {
  zh: 'shell.languageZh',
  en: 'shell.languageEn',
};

export interface TopBarProps {
  /** Mobile layout: the page links move into the drawer the menu button opens. */
  mobile?: boolean;
  onOpenMenu?: () => void;
  /** The date that decides whether the New Year item shows; now by default. */
  today?: Date;
}

export function TopBar({ mobile = false, onOpenMenu, today }: TopBarProps) {
  const { t, i18n } = useTranslation('common');
  const { status } = useSystemStatus();
  const { mode, toggle } = useThemeMode();
  const { user, clear } = useSession();
  const [logout] = useLogoutMutation();
  const notify = useNotify();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const [fireworks, setFireworks] = useState(false);
  const endFireworks = useCallback(() => setFireworks(false), []);
  const currentLanguage = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'zh';
  const newYear = isNewYearsDay(today ?? new Date());
  const links = buildTopNavLinks(status);
  const systemName = status?.system_name || DEFAULT_SYSTEM_NAME;
  // Spec: Register is hidden in self-use mode, except on mobile.
  const showRegister = !status?.self_use_mode_enabled || mobile;

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

  const isCurrent = (to: string) => (to === '/' ? pathname === '/' : pathname.startsWith(to));

  return (
    <AppBar position="sticky" color="default" elevation={1} enableColorOnDark>
      <Toolbar
        disableGutters
        sx={{ minHeight: { xs: TOP_BAR_HEIGHT }, height: TOP_BAR_HEIGHT, px: 1, gap: 0.5 }}
      >
        {mobile && (
          <IconButton color="inherit" aria-label={t('nav.openMenu')} onClick={onOpenMenu} edge="start">
            <MenuIcon />
          </IconButton>
        )}
        <Box
          component={RouterLink}
          to="/"
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            color: 'inherit',
            textDecoration: 'none',
            mr: 1,
          }}
        >
          {status?.logo && (
            <Box
              component="img"
              src={status.logo}
              alt=""
              sx={{ width: 28, height: 28, objectFit: 'contain' }}
            />
          )}
          <Typography
            variant="h6"
            component="span"
            noWrap
            sx={{ fontWeight: 600, maxWidth: { xs: 140, sm: 240 } }}
          >
            {systemName}
          </Typography>
        </Box>
        {status?.self_use_mode_enabled && (
          <Chip size="small" color="primary" label={t('shell.selfUseMode')} />
        )}
        {status?.demo_site_enabled && <Chip size="small" color="secondary" label={t('shell.demoSite')} />}

        {!mobile && (
          <Box component="nav" aria-label={t('nav.navigation')} sx={{ display: 'flex', gap: 0.5, ml: 1 }}>
            {links.map((link) =>
              link.external ? (
                <Button
                  key={link.labelKey}
                  color="inherit"
                  href={link.to}
                  target="_blank"
                  rel="noopener noreferrer"
                  endIcon={<OpenInNewIcon sx={{ fontSize: 16 }} />}
                >
                  {t(link.labelKey)}
                </Button>
              ) : (
                <Button
                  key={link.labelKey}
                  color={isCurrent(link.to) ? 'primary' : 'inherit'}
                  component={RouterLink}
                  to={link.to}
                  aria-current={isCurrent(link.to) ? 'page' : undefined}
                >
                  {t(link.labelKey)}
                </Button>
              ),
            )}
          </Box>
        )}
        <Box sx={{ flexGrow: 1 }} />

        {newYear && (
          <Tooltip title={t('shell.newYear')}>
            <IconButton
              color="inherit"
              aria-label={t('shell.newYearFireworks')}
              onClick={() => setFireworks(true)}
            >
              <CelebrationIcon />
            </IconButton>
          </Tooltip>
        )}

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
              <Avatar sx={{ width: 32, height: 32, fontSize: 16, bgcolor: 'primary.main' }}>
                {user.username.charAt(0).toUpperCase()}
              </Avatar>
            </IconButton>
            <Menu
              anchorEl={accountAnchor}
              open={accountAnchor !== null}
              onClose={() => setAccountAnchor(null)}
            >
              <MenuItem disabled sx={{ opacity: '1 !important' }}>
                <Typography variant="body2" color="text.secondary">
                  {user.display_name || user.username}
                </Typography>
              </MenuItem>
              <MenuItem component={RouterLink} to="/personal" onClick={() => setAccountAnchor(null)}>
                <ListItemIcon>
                  <NavItemIcon icon="personal" fontSize="small" />
                </ListItemIcon>
                {t('nav.personal')}
              </MenuItem>
              <MenuItem onClick={() => void signOut()}>
                <ListItemIcon>
                  <LogoutIcon fontSize="small" />
                </ListItemIcon>
                {t('shell.logout')}
              </MenuItem>
            </Menu>
          </>
        ) : pathname === '/setup' ? null : (
          <>
            <Button color="inherit" component={RouterLink} to="/login" sx={{ minWidth: 0 }}>
              {t('shell.login')}
            </Button>
            {showRegister && (
              <Button
                variant="outlined"
                size="small"
                component={RouterLink}
                to="/register"
                sx={{ minWidth: 0 }}
              >
                {t('shell.register')}
              </Button>
            )}
          </>
        )}
      </Toolbar>
      {fireworks && <Fireworks greeting={t('shell.newYearGreeting')} onDone={endFireworks} />}
    </AppBar>
  );
}
