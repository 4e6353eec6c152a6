import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { ReactNode } from 'react';

export interface TextInputProps extends Omit<OutlinedInputProps, 'label' | 'error' | 'inputRef'> {
  id: string;
  label: string;
  /** Validation message shown under the field and announced with it. */
  errorText?: string;
  helperText?: ReactNode;
  inputRef?: (element: HTMLInputElement | null) => void;
}

/**
 * A labelled text field. MUI's TextField also carries Select (and with it Menu, Popover and Modal);
 * the forms here need only an input, so they use this lighter composition of the same parts.
 */
export function TextInput({ id, label, errorText, helperText, required, fullWidth = true, inputRef, ...input }: TextInputProps) {
  const message = errorText ?? helperText;
  const helperId = message ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" error={Boolean(errorText)} required={required} fullWidth={fullWidth}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        inputRef={inputRef}
        label={required ? `${label} *` : label}
        aria-describedby={helperId}
      />
      {message && <FormHelperText id={helperId}>{message}</FormHelperText>}
    </FormControl>
  );
}
