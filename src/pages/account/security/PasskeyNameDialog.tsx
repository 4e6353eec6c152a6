import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passkeyNameFormSchema, type PasskeyNameFormValues } from '../../../../contract/forms.js';
import { PASSKEY_NAME_MAX_LENGTH } from '../../../../contract/two-factor-values.js';
import './texts.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';

const resolver = zodResolver(passkeyNameFormSchema);

export interface PasskeyNameDialogProps {
  open: boolean;
  title: string;
  text?: string;
  initialName: string;
  confirmLabel: string;
  onCancel: () => void;
  /** Resolves to the refusal's messageKey (shown under the field), or null when done. */
  onSubmit: (name: string) => Promise<string | null>;
}

/** A passkey's name, asked when one is added (a default from the browser and system) and when one is renamed. */
export function PasskeyNameDialog({ open, ...props }: PasskeyNameDialogProps) {
  return open ? <NameForm {...props} /> : null;
}

function NameForm({ title, text, initialName, confirmLabel, onCancel, onSubmit }: Omit<PasskeyNameDialogProps, 'open'>) {
  const { t } = useTranslation();
  const titleId = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasskeyNameFormValues>({ resolver, defaultValues: { name: initialName } });

  const submit = handleSubmit(async ({ name }) => {
    const refused = await onSubmit(name.trim());
    if (refused !== null) setError('name', serverError(refused));
  });
  const message = fieldErrorText(t, errors, 'name');

  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {text && <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>}
          <TextField
            {...register('name')}
            id="passkey-name"
            label={t('security:passkeys.name')}
            autoComplete="off"
            autoFocus
            fullWidth
            margin="dense"
            required
            slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX_LENGTH } }}
            error={Boolean(message)}
            helperText={message}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('security:passkeys.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
