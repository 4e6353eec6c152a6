import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { reauthFormSchema, type ReauthFormValues } from '../../../../contract/forms.js';
import { totpCodeOf } from '../../../../contract/two-factor-values.js';
import type { Reauthentication } from '../../../../contract/two-factor.js';
import type { Proof } from './proof.js';
import './texts.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';
import { errorText } from '../../../../providers/errors.js';

export interface ReauthDialogProps {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  proof: Proof;
  onCancel: () => void;
  /** Does what was asked with the proof; resolves to the refusal's messageKey, or null when it is done. */
  onConfirm: (proof: Reauthentication) => Promise<string | null>;
}

/** Where a refusal shows: under the field it is about, or above the form. */
const FIELD_OF: Record<string, 'password' | 'code' | undefined> = {
  WRONG_PASSWORD: 'password',
  INVALID_TWO_FACTOR_CODE: 'code',
};

/**
 * The question before turning off the authenticator app, making new recovery codes or removing a passkey
 * (issue 44): what follows, and the proof that it is the account's owner asking (./proof.ts). A refusal of
 * the proof stays in the dialog, under its field; the dialog closes when the action is done. The one such
 * dialog; its own chunk, loaded when it opens.
 */
export function ReauthDialog({ open, ...props }: ReauthDialogProps) {
  // A new form each time it opens: nothing typed before (a password!) stays in it.
  return open ? <ReauthForm {...props} /> : null;
}

function ReauthForm({ title, text, confirmLabel, proof, onCancel, onConfirm }: Omit<ReauthDialogProps, 'open'>) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const resolver = useMemo(() => zodResolver(reauthFormSchema(proof)), [proof]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ReauthFormValues>({ resolver, defaultValues: { password: '', code: '' } });

  const submit = handleSubmit(async (values) => {
    setRefusal(null);
    const given: Reauthentication = proof === 'password' ? { password: values.password } : proof === 'code' ? { code: totpCodeOf(values.code) ?? values.code } : {};
    const refused = await onConfirm(given);
    if (refused === null) return;
    const field = FIELD_OF[refused];
    if (field && field === proof) setError(field, serverError(refused));
    else setRefusal(refused);
  });
  const message = (field: 'password' | 'code') => fieldErrorText(t, errors, field);

  return (
    <Dialog open onClose={onCancel} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId} sx={{ mb: 2 }}>
            {text}
          </DialogContentText>
          {refusal && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {errorText(t, refusal)}
            </Alert>
          )}
          {proof === 'recent' ? (
            <DialogContentText>{t('security:reauth.recent')}</DialogContentText>
          ) : (
            <>
              <DialogContentText sx={{ mb: 1 }}>{t('security:reauth.prove')}</DialogContentText>
              {proof === 'password' ? (
                <TextField
                  {...register('password')}
                  id="reauth-password"
                  type="password"
                  label={t('security:reauth.password')}
                  autoComplete="current-password"
                  autoFocus
                  fullWidth
                  margin="dense"
                  required
                  error={Boolean(errors.password)}
                  helperText={message('password')}
                />
              ) : (
                <TextField
                  {...register('code')}
                  id="reauth-code"
                  label={t('security:reauth.code')}
                  autoComplete="one-time-code"
                  autoFocus
                  fullWidth
                  margin="dense"
                  required
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
                  error={Boolean(errors.code)}
                  helperText={message('code')}
                />
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('security:reauth.cancel')}</Button>
          <Button type="submit" variant="contained" color="error" disabled={isSubmitting} autoFocus={proof === 'recent'}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
