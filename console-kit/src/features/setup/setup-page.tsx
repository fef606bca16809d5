import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { PasswordFields } from '../../components/password-fields';
import { Navigate } from 'react-router';
import { useGetSetupQuery, usePostSetupMutation } from '../../api/gatehouse-api';
import { describeApiError, isApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useNotify } from '../../provider/console-context';
import {
  toSetupPayload,
  setupFormErrors,
  type SetupFormValues,
  type SetupValidationError,
  type UsageMode,
} from './setup-form-validation';
import { SETUP_NAMESPACE, setupLocales } from './setup-locales';

export const SETUP_RELOAD_DELAY_MS = 1500;

export interface SetupPageProps {
  /** Called 1.5 s after a successful initialisation; the default reloads the page as the spec says. */
  onInitialized?: () => void;
}

const USAGE_MODES: UsageMode[] = ['external', 'self', 'demo'];

function reloadPage(): void {
  window.location.reload();
}

export function SetupPage({ onInitialized = reloadPage }: SetupPageProps) {
  const { t } = useFeatureTranslation(SETUP_NAMESPACE, setupLocales);
  const notify = useNotify();
  const setup = useGetSetupQuery();
  const [postSetup, { isLoading: submitting }] = usePostSetupMutation();
  const [values, setValues] = useState<SetupFormValues>({
    username: '',
    password: '',
    confirmPassword: '',
    usageMode: 'external',
  });
  const [validationErrors, setValidationErrors] = useState<SetupValidationError[]>([]);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [initialized, setInitialized] = useState(false);
  const [explainOpen, setExplainOpen] = useState(false);
  const ids = useId();
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  if (setup.isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('title')} />
      </Box>
    );
  }
  if (setup.isError || !setup.data) {
    return (
      <Box sx={{ maxWidth: 720, mx: 'auto', p: 3 }}>
        <Alert severity="error">{t('loadFailed')}</Alert>
      </Box>
    );
  }
  if (setup.data.status && !initialized) {
    return <Navigate to="/" replace />;
  }

  const rootInitialized = setup.data.root_init;
  const change =
    <K extends keyof SetupFormValues>(field: K) =>
    (value: SetupFormValues[K]) => {
      setValues((current) => ({ ...current, [field]: value }));
      setValidationErrors((errors) => errors.filter((error) => error.field !== field));
    };
  const fieldError = (field: SetupValidationError['field']) => {
    const error = validationErrors.find((candidate) => candidate.field === field);
    return error ? t(error.messageKey) : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitError(null);
    const errors = setupFormErrors(values, rootInitialized);
    setValidationErrors(errors);
    if (errors.length > 0) {
      return;
    }
    try {
      await postSetup(toSetupPayload(values, rootInitialized)).unwrap();
      setInitialized(true);
      notify(t('success'), 'success');
      reloadTimer.current = setTimeout(onInitialized, SETUP_RELOAD_DELAY_MS);
    } catch (failure) {
      // A refusal carries the server's reason; a transport failure gets the generic retry text.
      const message =
        isApiError(failure) && failure.status === 'ENVELOPE'
          ? describeApiError(failure, t, t('failed'))
          : t('requestFailed');
      setSubmitError(message);
    }
  };

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', p: { xs: 2, sm: 3 } }}>
      <Paper
        component="form"
        noValidate
        onSubmit={(event) => void submit(event)}
        sx={{ p: { xs: 2, sm: 4 } }}
      >
        <Stack spacing={3}>
          <Box>
            <Typography variant="h5" component="h1" gutterBottom>
              {t('title')}
            </Typography>
            <Typography color="text.secondary">{t('subtitle')}</Typography>
          </Box>

          {setup.data.database_type === 'sqlite' && (
            <Alert severity="warning">
              <AlertTitle>{t('database.sqliteTitle')}</AlertTitle>
              {t('database.sqlite')}
            </Alert>
          )}

          <Box component="section" aria-labelledby={`${ids}-admin`}>
            <Typography id={`${ids}-admin`} variant="h6" component="h2" gutterBottom>
              {t('admin.title')}
            </Typography>
            {rootInitialized ? (
              <Alert severity="info">{t('admin.exists')}</Alert>
            ) : (
              <Stack spacing={2}>
                <TextField
                  label={t('admin.username')}
                  name="username"
                  autoComplete="username"
                  value={values.username}
                  onChange={(event) => change('username')(event.target.value)}
                  error={fieldError('username') !== undefined}
                  helperText={fieldError('username') ?? t('admin.usernameHint')}
                  fullWidth
                />
                <PasswordFields
                  password={{
                    label: t('admin.password'),
                    name: 'password',
                    value: values.password,
                    onChange: change('password'),
                    error: fieldError('password'),
                    hint: t('admin.passwordHint'),
                  }}
                  confirm={{
                    label: t('admin.confirmPassword'),
                    name: 'confirmPassword',
                    value: values.confirmPassword,
                    onChange: change('confirmPassword'),
                    error: fieldError('confirmPassword'),
                  }}
                />
              </Stack>
            )}
          </Box>

          <FormControl>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <FormLabel id={`${ids}-mode`}>{t('mode.title')}</FormLabel>
              <Button size="small" onClick={() => setExplainOpen(true)}>
                {t('mode.explain')}
              </Button>
            </Stack>
            <RadioGroup
              aria-labelledby={`${ids}-mode`}
              name="usageMode"
              value={values.usageMode}
              onChange={(event) => change('usageMode')(event.target.value as UsageMode)}
            >
              {USAGE_MODES.map((mode) => (
                <FormControlLabel key={mode} value={mode} control={<Radio />} label={t(`mode.${mode}`)} />
              ))}
            </RadioGroup>
          </FormControl>

          {submitError && <Alert severity="error">{submitError}</Alert>}
          {initialized && <Alert severity="success">{t('success')}</Alert>}

          <Button type="submit" variant="contained" size="large" disabled={submitting || initialized}>
            {submitting ? t('submitting') : t('submit')}
          </Button>
        </Stack>
      </Paper>

      <Dialog open={explainOpen} onClose={() => setExplainOpen(false)} aria-labelledby={`${ids}-modes`}>
        <DialogTitle id={`${ids}-modes`}>{t('mode.explain')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {USAGE_MODES.map((mode) => (
              <Box key={mode}>
                <Typography variant="subtitle1" component="h3">
                  {t(`mode.${mode}`)}
                </Typography>
                <Typography color="text.secondary">{t(`mode.${mode}Description`)}</Typography>
              </Box>
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setExplainOpen(false)}>{t('mode.close')}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
