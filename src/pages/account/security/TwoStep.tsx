import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useNotification } from '@refinedev/core';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reauthentication, RecoveryCodesResponse, TotpSetupResponse, TwoFactorStatus } from '../../../../contract/two-factor.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText, messageKeyOf } from '../../../../providers/errors.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { RecoveryCodes } from './RecoveryCodes.js';
import type { Proof } from './proof.js';
import { ReauthDialog, TotpSetup } from './lazyParts.js';
import './texts.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/** Fewer recovery codes than this left: the section says to make new ones. */
const FEW_CODES = 3;

type Asking = 'turnOff' | 'newCodes';

/**
 * Two-step sign-in with an authenticator app (issue 44): its state, setting it up (QR code, key, first code),
 * the recovery codes shown once, how many are left, making new ones and turning it off (both proven in the
 * reauthentication dialog). `onChanged` reads the state and the user again after a change.
 */
export function TwoStepSection({ status, email, proof, onChanged }: { status: TwoFactorStatus; email: string; proof: Proof; onChanged: () => Promise<void> }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { open: notify } = useNotification();
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const { mutateAsync: start, mutation: starting } = useCustomMutation<TotpSetupResponse, DataError>();
  const { mutateAsync: change } = useCustomMutation<Partial<RecoveryCodesResponse>, DataError>();
  const on = status.totp || status.passkeys > 0;

  const startSetup = async () => {
    setCodes(null);
    try {
      const { data } = await start({ url: '/users/me/two-factor/totp', method: 'post', values: {}, errorNotification: false });
      setSetup(data);
    } catch (error) {
      notify?.({ type: 'error', message: errorText(t, error) });
      // Already set up elsewhere (another tab): show it as it is.
      await onChanged();
    }
  };

  const confirmed = (recoveryCodes: string[]) => {
    setSetup(null);
    setCodes(recoveryCodes);
    notify?.({ type: 'success', message: t('security:twoStep.turnedOn') });
    void onChanged();
  };

  const act = async (what: Asking, given: Reauthentication): Promise<string | null> => {
    try {
      if (what === 'turnOff') {
        await change({ url: '/users/me/two-factor', method: 'delete', values: given, errorNotification: false });
        setCodes(null);
        notify?.({ type: 'success', message: t('security:twoStep.turnedOff') });
      } else {
        const { data } = await change({ url: '/users/me/two-factor/recovery-codes', method: 'post', values: given, errorNotification: false });
        setCodes(data?.recoveryCodes ?? null);
      }
      setAsking(null);
      await onChanged();
      return null;
    } catch (error) {
      return messageKeyOf(error);
    }
  };

  const state = status.totp ? 'security:twoStep.appOn' : on ? 'security:twoStep.passkeysOnly' : 'security:twoStep.off';
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('security:twoStep.intro')}</Typography>
      <Typography sx={{ mb: 1, fontWeight: 500 }} data-testid="two-step-state">
        {t(state)}
      </Typography>
      {on && (
        <Typography sx={{ mb: 1 }} data-testid="recovery-codes-left">
          {t('security:twoStep.codesLeft', { count: status.recoveryCodesLeft })}
        </Typography>
      )}
      {on && status.recoveryCodesLeft < FEW_CODES && codes === null && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('security:twoStep.codesLow')}
        </Alert>
      )}
      {codes && <RecoveryCodes codes={codes} email={email} onDone={() => setCodes(null)} />}
      {setup ? (
        <Suspense fallback={<FullPageSpinner minHeight={240} />}>
          <TotpSetup setup={setup} onConfirmed={confirmed} onCancel={() => setSetup(null)} />
        </Suspense>
      ) : (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 2 }}>
          {!status.totp && (
            <Button variant="contained" disabled={readOnly || starting.isPending} onClick={() => void startSetup()}>
              {t('security:twoStep.setUp')}
            </Button>
          )}
          {on && (
            <Button variant="outlined" disabled={readOnly} onClick={() => setAsking('newCodes')}>
              {t('security:twoStep.newCodes')}
            </Button>
          )}
          {status.totp && (
            <Button variant="outlined" color="error" disabled={readOnly} onClick={() => setAsking('turnOff')}>
              {t('security:twoStep.turnOff')}
            </Button>
          )}
        </Stack>
      )}
      {asking && (
        <Suspense fallback={null}>
          <ReauthDialog
            open
            title={t(asking === 'turnOff' ? 'security:reauth.turnOff' : 'security:reauth.newCodes')}
            text={t(asking === 'turnOff' ? 'security:reauth.turnOffText' : 'security:reauth.newCodesText')}
            confirmLabel={t(asking === 'turnOff' ? 'security:reauth.confirmTurnOff' : 'security:reauth.confirmNewCodes')}
            proof={proof}
            onCancel={() => setAsking(null)}
            onConfirm={(given) => act(asking, given)}
          />
        </Suspense>
      )}
    </>
  );
}
