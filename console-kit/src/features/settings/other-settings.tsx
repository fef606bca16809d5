import { useId, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useGetStatusQuery } from '../../api/gatehouse-api';
import { renderMarkdown } from '../../format/safe-html';
import { useNotify } from '../../provider/console-context';
import { OptionsPanel, type FieldSpec } from './options-panel';
import type { OptionValues } from './options-api';
import { useSettingsTranslation } from './settings-locales';

const NOTICE: FieldSpec[] = [{ key: 'Notice', kind: 'textarea' }];
const BRANDING: FieldSpec[] = [
  { key: 'SystemName', kind: 'text' },
  { key: 'DefaultLanguage', kind: 'select', choices: ['zh', 'en'] },
  { key: 'Logo', kind: 'text', wide: true },
];
const HOME: FieldSpec[] = [{ key: 'HomePageContent', kind: 'textarea' }];
const ABOUT: FieldSpec[] = [{ key: 'About', kind: 'textarea' }];
const FOOTER: FieldSpec[] = [{ key: 'Footer', kind: 'textarea' }];

/** Other tab: notice, name and logo, home page content, about, footer, version check. */
export function OtherSettings({ options }: { options: OptionValues }) {
  return (
    <Stack spacing={2}>
      <OptionsPanel id="notice" fields={NOTICE} options={options} />
      <OptionsPanel id="branding" fields={BRANDING} options={options} />
      <OptionsPanel id="home" fields={HOME} options={options} />
      <OptionsPanel id="about" fields={ABOUT} options={options} />
      <OptionsPanel id="footer" fields={FOOTER} options={options} />
      <VersionCheck />
    </Stack>
  );
}

export interface ReleaseInfo {
  tag_name: string;
  body: string;
  html_url?: string;
}

const bare = (version: string) => version.trim().replace(/^v/i, '');

/** True when the release tag names a different version than the running one. */
export function isNewerRelease(current: string, tag: string): boolean {
  return bare(tag) !== '' && bare(tag) !== bare(current);
}

/** Release notes are markdown from a public host: rendered and sanitized by the kit's safe subset. */
export function renderReleaseNotes(markdown: string): string {
  return renderMarkdown(markdown);
}

export async function fetchLatestRelease(repo: string, fetcher: typeof fetch = fetch): Promise<ReleaseInfo> {
  const response = await fetcher(`https://api.github.com/repos/${repo}/releases/latest`, {
    headers: { Accept: 'application/vnd.github+json' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const release = (await response.json()) as Partial<ReleaseInfo>;
  if (typeof release.tag_name !== 'string') throw new Error('no tag_name');
  return {
    tag_name: release.tag_name,
    body: typeof release.body === 'string' ? release.body : '',
    html_url: release.html_url,
  };
}

function VersionCheck() {
  const { t } = useSettingsTranslation();
  const notify = useNotify();
  const status = useGetStatusQuery();
  const [checking, setChecking] = useState(false);
  const [release, setRelease] = useState<ReleaseInfo | null>(null);
  const titleId = useId();
  const version = typeof status.data?.version === 'string' ? status.data.version : '';
  const repo = typeof status.data?.version_check_repo === 'string' ? status.data.version_check_repo : '';

  const check = async () => {
    setChecking(true);
    try {
      if (!repo) throw new Error('no repository configured');
      const latest = await fetchLatestRelease(repo);
      if (isNewerRelease(version, latest.tag_name)) setRelease(latest);
      else notify(t('version.latest'), 'success');
    } catch {
      notify(t('version.failed'), 'error');
    } finally {
      setChecking(false);
    }
  };

  return (
    <Card component="section" aria-labelledby={titleId} variant="outlined">
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2">
          {t('version.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('version.current', { version: version || t('version.unknown') })}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {repo ? (
          <Button variant="outlined" onClick={() => void check()} disabled={checking}>
            {t('version.check')}
          </Button>
        ) : (
          // No repository configured: no button that can only fail.
          <Typography variant="body2" color="text.secondary" data-testid="version-check-off">
            {t('version.off')}
          </Typography>
        )}
      </CardActions>
      <Dialog open={release !== null} onClose={() => setRelease(null)} fullWidth maxWidth="md">
        <DialogTitle>{release ? t('version.available', { tag: release.tag_name }) : ''}</DialogTitle>
        <DialogContent>
          <Box
            sx={{ '& img': { maxWidth: '100%' } }}
            dangerouslySetInnerHTML={{ __html: release ? renderReleaseNotes(release.body) : '' }}
          />
        </DialogContent>
        <DialogActions>
          {release?.html_url && (
            <Link
              href={release.html_url}
              target="_blank"
              rel="noreferrer noopener"
              sx={{ mr: 'auto', ml: 2 }}
            >
              {t('version.open')}
            </Link>
          )}
          <Button onClick={() => setRelease(null)}>{t('version.close')}</Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
