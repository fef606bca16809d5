import { useState, type FormEvent } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { SelfUser } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useNotify } from '../../provider/console-context';
import { useSession } from '../../provider/use-session';
import { useUpdateSelfMutation } from './personal-api';
import { isAdmin } from '../../shell/shell-nav';
import { roleLabelKey } from './personal-rules';
import { usePersonalTranslation } from './use-personal-translation';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ flex: '1 1 0', minWidth: 90 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={testId} sx={{ wordBreak: 'break-all' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** Name, role, balance, usage and group; the display name can be changed here. */
export function ProfileCard({ self }: { self: SelfUser }) {
  const { t } = usePersonalTranslation();
  const { formatQuota } = useQuotaFormat();
  const notify = useNotify();
  const { user, signIn } = useSession();
  const [updateSelf, { isLoading }] = useUpdateSelfMutation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const openEditor = () => {
    setName(self.display_name || self.username);
    setError(null);
    setEditing(true);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await updateSelf({ display_name: name.trim() }).unwrap();
      if (user) {
        signIn({ ...user, display_name: name.trim() || user.username });
      }
      notify(t('profile.nameSaved'), 'success');
      setEditing(false);
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontSize: 24 }}>
            {self.username.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography variant="h6" component="h2" noWrap data-testid="profile-display-name">
              {self.display_name || self.username}
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2" color="text.secondary" noWrap>
                @{self.username}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('profile.userId', { id: self.id })}
              </Typography>
              <Chip
                size="small"
                color={isAdmin(self) ? 'warning' : 'default'}
                label={t(roleLabelKey(self.role))}
              />
            </Stack>
          </Box>
          <Button size="small" onClick={openEditor} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            {t('profile.editName')}
          </Button>
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
          <Figure
            label={t('profile.balance')}
            value={formatQuota(self.quota ?? 0)}
            testId="profile-balance"
          />
          <Figure label={t('profile.used')} value={formatQuota(self.used_quota ?? 0)} testId="profile-used" />
          <Figure
            label={t('profile.requests')}
            value={String(self.request_count ?? 0)}
            testId="profile-requests"
          />
          <Figure label={t('profile.group')} value={self.group || 'default'} testId="profile-group" />
        </Stack>
      </CardContent>

      <Dialog
        open={editing}
        onClose={() => setEditing(false)}
        fullWidth
        maxWidth="xs"
        aria-labelledby="gatehouse-name-title"
      >
        <Box component="form" noValidate onSubmit={(event) => void save(event)}>
          <DialogTitle id="gatehouse-name-title">{t('profile.editName')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <TextField
                label={t('profile.displayName')}
                value={name}
                autoFocus
                onChange={(event) => setName(event.target.value)}
                fullWidth
              />
              {error && <Alert severity="error">{error}</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setEditing(false)}>{t('common:actions.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={isLoading}>
              {t('common:actions.save')}
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Card>
  );
}
