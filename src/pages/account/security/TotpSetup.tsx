import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustomMutation } from '@refinedev/core';
import { useEffect, useState } from 'react';
import type * as QrCodeModule from 'qrcode';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { totpCodeFormSchema, type TotpCodeFormValues } from '../../../../contract/forms.js';
import { totpCodeOf } from '../../../../contract/two-factor-values.js';
import type { RecoveryCodesResponse, TotpSetupResponse } from '../../../../contract/two-factor.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import './texts.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';

type QrCode = typeof QrCodeModule;

/** The QR code library, loaded only when a setup shows one (it is not part of any page's first load). */
async function loadQrCode(): Promise<QrCode> {
  const module = (await import('qrcode')) as QrCode & { default?: QrCode };
  return module.default ?? module;
}

/** The otpauth address as an SVG picture (an `<img>` source: the page's CSP allows data: images). */
export async function qrCodeImage(otpauthUri: string): Promise<string> {
  const qrcode = await loadQrCode();
  const svg = await qrcode.toString(otpauthUri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The base32 key in groups of four, as authenticator apps show it and people type it. */
export function groupedSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

const resolver = zodResolver(totpCodeFormSchema);

/**
 * Setting up the authenticator app (issue 44): the secret the server made (inactive until confirmed), as a
 * QR code and as text, and the first code from the app, which turns it on and answers the recovery codes.
 */
export function TotpSetup({ setup, onConfirmed, onCancel }: { setup: TotpSetupResponse; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [image, setImage] = useState<string | null>(null);
  const [imageFailed, setImageFailed] = useState(false);
  const [copied, setCopied] = useState(false);
  const { mutateAsync: confirm } = useCustomMutation<RecoveryCodesResponse, DataError>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TotpCodeFormValues>({ resolver, defaultValues: { code: '' } });

  useEffect(() => {
    let current = true;
    qrCodeImage(setup.otpauthUri).then(
      (source) => current && setImage(source),
      () => current && setImageFailed(true),
    );
    return () => {
      current = false;
    };
  }, [setup.otpauthUri]);

  const submit = handleSubmit(async ({ code }) => {
    try {
      const { data } = await confirm({ url: '/users/me/two-factor/totp/confirm', method: 'post', values: { code: totpCodeOf(code) ?? code }, errorNotification: false });
      onConfirmed(data.recoveryCodes);
    } catch (error) {
      setError('code', serverError(messageKeyOf(error)));
    }
  });
  const codeError = fieldErrorText(t, errors, 'code');

  return (
    <Box data-testid="totp-setup" sx={{ my: 2 }}>
      <Typography sx={{ mb: 2 }}>{t('security:twoStep.scan')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 3, alignItems: { sm: 'center' } }}>
        {image ? (
          <Box component="img" src={image} alt={t('security:twoStep.qrAlt')} width={200} height={200} sx={{ bgcolor: '#fff', flex: 'none' }} />
        ) : imageFailed ? (
          <Alert severity="warning">{t('security:twoStep.qrFailed')}</Alert>
        ) : (
          <Skeleton variant="rectangular" width={200} height={200} aria-hidden="true" />
        )}
        <Box>
          <Typography variant="body2" color="text.secondary" id="totp-secret-label">
            {t('security:twoStep.secret')}
          </Typography>
          <Typography aria-labelledby="totp-secret-label" data-testid="totp-secret" sx={{ fontFamily: 'monospace', fontSize: '1.1rem', wordBreak: 'break-all', my: 1 }}>
            {groupedSecret(setup.secret)}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            onClick={() =>
              void navigator.clipboard.writeText(setup.secret).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {t('security:twoStep.copySecret')}
          </Button>
          <Box role="status" aria-live="polite" sx={{ mt: 1 }}>
            {copied && <Typography variant="body2">{t('security:twoStep.secretCopied')}</Typography>}
          </Box>
        </Box>
      </Stack>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 2, mt: 2, maxWidth: 360 }}>
        <TextField
          {...register('code')}
          id="totp-confirm-code"
          label={t('security:twoStep.code')}
          autoComplete="one-time-code"
          required
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          error={Boolean(codeError)}
          helperText={codeError ?? t('security:twoStep.codeHelp')}
        />
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('security:twoStep.confirm')}
          </Button>
          <Button onClick={onCancel} disabled={isSubmitting}>
            {t('security:twoStep.cancel')}
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}
