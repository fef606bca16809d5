import {
  Box,
  Divider,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { ConsoleFeature } from '../lib/console-feature';
import { useSession } from '../provider/use-session';
import { useSystemStatus } from '../provider/use-system-status';
import { ChevronLeftIcon, ChevronRightIcon, NavItemIcon, OpenInNewIcon } from './shell-icons';
import { buildSidebarGroups, buildTopNavLinks, type NavItem } from './shell-nav';

export interface SidebarNavProps {
  /** The mounted features: their sidebar entries are the menu (the host's routes come from the same list). */
  features: readonly ConsoleFeature[];
  collapsed: boolean;
  /** Shown at the bottom; absent in the mobile drawer, which closes instead. */
  onToggleCollapsed?: () => void;
  /** Mobile drawer: the top bar's page links come first. */
  withPageLinks?: boolean;
  /** Called after a link was followed (the mobile drawer closes). */
  onNavigate?: () => void;
}

/**
 * The spec's sidebar groups, drawn from the features' entries with their visibility rules (shell-nav.ts),
 * icons only when collapsed.
 */
export function SidebarNav({
  features,
  collapsed,
  onToggleCollapsed,
  withPageLinks = false,
  onNavigate,
}: SidebarNavProps) {
  const { t } = useTranslation('common');
  const { status } = useSystemStatus();
  const { user } = useSession();
  const { pathname } = useLocation();
  const groups = user ? buildSidebarGroups(features, status, user) : [];
  const pageLinks = withPageLinks ? buildTopNavLinks(status) : [];

  const selected = (to: string) =>
    to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);

  const renderItem = (item: NavItem) => {
    const label = item.label ?? t(item.labelKey ?? '');
    const button = (
      <ListItemButton
        key={item.to}
        component={RouterLink}
        to={item.to}
        selected={selected(item.to)}
        aria-current={selected(item.to) ? 'page' : undefined}
        aria-label={collapsed ? label : undefined}
        onClick={onNavigate}
        sx={{ minHeight: 40, px: collapsed ? 2.25 : 2, justifyContent: collapsed ? 'center' : 'flex-start' }}
      >
        <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36, color: 'inherit' }}>
          <NavItemIcon icon={item.icon} fontSize="small" />
        </ListItemIcon>
        {!collapsed && (
          <ListItemText primary={label} slotProps={{ primary: { noWrap: true, variant: 'body2' } }} />
        )}
      </ListItemButton>
    );
    return collapsed ? (
      <Tooltip key={item.to} title={label} placement="right">
        {button}
      </Tooltip>
    ) : (
      button
    );
  };

  return (
    <Box
      component="nav"
      aria-label={t('nav.sidebar')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', overflowX: 'hidden' }}
    >
      <Box sx={{ flexGrow: 1, overflowY: 'auto' }}>
        {pageLinks.length > 0 && (
          <List dense>
            {pageLinks.map((link) =>
              link.external ? (
                <ListItemButton
                  key={link.labelKey}
                  component="a"
                  href={link.to}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={onNavigate}
                >
                  <ListItemText primary={t(link.labelKey)} />
                  <OpenInNewIcon fontSize="small" />
                </ListItemButton>
              ) : (
                <ListItemButton
                  key={link.labelKey}
                  component={RouterLink}
                  to={link.to}
                  selected={selected(link.to)}
                  onClick={onNavigate}
                >
                  <ListItemText primary={t(link.labelKey)} />
                </ListItemButton>
              ),
            )}
          </List>
        )}
        {pageLinks.length > 0 && groups.length > 0 && <Divider />}
        {groups.map((group, index) => (
          <List
            key={group.id}
            dense
            disablePadding
            sx={{ py: 0.5 }}
            subheader={
              group.titleKey && !collapsed ? (
                <ListSubheader component="div" sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
                  {t(group.titleKey)}
                </ListSubheader>
              ) : undefined
            }
          >
            {collapsed && index > 0 && <Divider sx={{ my: 0.5 }} />}
            {group.items.map(renderItem)}
          </List>
        ))}
      </Box>
      {onToggleCollapsed && (
        <>
          <Divider />
          <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 0.5 }}>
            <Tooltip title={collapsed ? t('nav.expandSidebar') : t('nav.collapseSidebar')} placement="right">
              <IconButton
                size="small"
                onClick={onToggleCollapsed}
                aria-label={collapsed ? t('nav.expandSidebar') : t('nav.collapseSidebar')}
                aria-expanded={!collapsed}
              >
                {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
              </IconButton>
            </Tooltip>
          </Box>
        </>
      )}
    </Box>
  );
}
