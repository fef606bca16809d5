import { useState } from 'react';
import { Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import type { PanelContext } from './options-panel';
import { addDomain, parseDomainList } from './email-domains';

export const WHITELIST_KEY = 'EmailDomainWhitelist';

/** Chips for the whitelisted domains, an input to add one (validated, no duplicates). */
export function EmailDomainEditor({ ctx }: { ctx: PanelContext }) {
  const { t, values, set, readOnly, errors } = ctx;
  const [input, setInput] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const domains = parseDomainList(values[WHITELIST_KEY] ?? '');
  const disabled = readOnly(WHITELIST_KEY);

  const add = () => {
    const result = addDomain(domains, input);
    if ('problem' in result) {
      setProblem(
        result.problem === 'invalid'
          ? t('emailDomain.invalid', { host: 'example.com' })
          : t('emailDomain.duplicate'),
      );
      return;
    }
    set(WHITELIST_KEY, result.list.join(','));
    setInput('');
    setProblem(null);
  };

  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h3">
        {t('fields.EmailDomainWhitelist')}
      </Typography>
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
        role="list"
        aria-label={t('fields.EmailDomainWhitelist')}
      >
        {domains.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('emailDomain.empty')}
          </Typography>
        )}
        {domains.map((domain) => (
          <Chip
            key={domain}
            role="listitem"
            label={domain}
            onDelete={
              disabled
                ? undefined
                : () => set(WHITELIST_KEY, domains.filter((other) => other !== domain).join(','))
            }
            aria-label={domain}
            title={disabled ? undefined : t('emailDomain.remove', { domain })}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          name="email_domain"
          label={t('emailDomain.input')}
          placeholder={t('emailDomain.placeholder')}
          value={input}
          disabled={disabled}
          onChange={(event) => {
            setInput(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          error={Boolean(problem ?? errors[WHITELIST_KEY])}
          helperText={problem ?? errors[WHITELIST_KEY]}
        />
        <Button variant="outlined" onClick={add} disabled={disabled}>
          {t('emailDomain.add')}
        </Button>
      </Stack>
    </Stack>
  );
}
