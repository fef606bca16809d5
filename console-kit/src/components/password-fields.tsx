import { TextField } from '@mui/material';

export interface PasswordFieldSpec {
  label: string;
  /** The form field's name (what password managers see). */
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** The field's error, shown in red instead of the hint. */
  error?: string;
  hint?: string;
}

/**
 * A new password and its confirmation, as every form that sets a password shows them: masked, marked
 * as a new password for the browser's password manager, full width, error in place of the hint.
 */
export function PasswordFields({
  password,
  confirm,
}: {
  password: PasswordFieldSpec;
  confirm: PasswordFieldSpec;
}) {
  return (
    <>
      {[password, confirm].map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          name={field.name}
          type="password"
          autoComplete="new-password"
          value={field.value}
          onChange={(event) => field.onChange(event.target.value)}
          error={field.error !== undefined}
          helperText={field.error ?? field.hint}
          fullWidth
        />
      ))}
    </>
  );
}
