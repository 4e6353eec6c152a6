import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useNotification } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { Me } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText } from '../../../../providers/errors.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { goToProvider, type SocialProvider } from '../../../components/social.js';
import type { SocialNotice } from '../SocialAccount.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

const PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', facebook: 'Facebook' };

/**
 * Connected Google and Facebook accounts: connect goes through the provider; disconnect asks first. Google
 * is unlinked at once; Facebook asks the person to sign in to the linked account once more (spec section 2).
 * How a return from the provider went is a notification.
 */
export function ConnectedAccounts({ user, onSaved }: { user: Me; onSaved: (user: Me) => void }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { open: notify } = useNotification();
  const notice = (useLocation().state as { social?: SocialNotice } | null)?.social;
  const [confirming, setConfirming] = useState<SocialProvider | null>(null);
  const [pending, setPending] = useState(false);
  const { mutate: unlink } = useCustomMutation<Me, DataError>();
  const readOnly = useReadOnly();

  useEffect(() => {
    if (!notice) return;
    const provider = PROVIDER_NAMES[notice.provider];
    if (notice.done) notify?.({ type: 'success', message: t(notice.done === 'connected' ? 'pages.profile.connectedNow' : 'pages.profile.disconnectedNow', { provider }) });
    if (notice.messageKey) notify?.({ type: 'error', message: errorText(t, notice.messageKey) });
  }, [notice, notify, t]);

  const fail = (messageKey: string) => {
    notify?.({ type: 'error', message: errorText(t, messageKey) });
    setPending(false);
  };

  const connect = async (provider: SocialProvider) => {
    setPending(true);
    const failure = await goToProvider(localize, provider, 'connect');
    if (failure) fail(failure);
  };

  const disconnect = async (provider: SocialProvider) => {
    setConfirming(null);
    setPending(true);
    if (provider === 'facebook') {
      const failure = await goToProvider(localize, 'facebook', 'disconnect');
      if (failure) fail(failure);
      return;
    }
    unlink(
      {
        url: `/users/me/disconnectSocial/${provider}`,
        method: 'patch',
        values: {},
        successNotification: () => ({ type: 'success', message: t('pages.profile.disconnectedNow', { provider: PROVIDER_NAMES[provider] }) }),
      },
      { onSuccess: ({ data }) => onSaved(data), onSettled: () => setPending(false) },
    );
  };

  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        {(['google', 'facebook'] as const).map((provider) => {
          const connected = provider === 'google' ? user.googleConnected : user.facebookConnected;
          return (
            <Box component="li" key={provider} sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              <Typography sx={{ flex: 1 }}>
                <strong>{PROVIDER_NAMES[provider]}</strong>
                {' · '}
                {t(connected ? 'pages.profile.isConnected' : 'pages.profile.notConnected')}
              </Typography>
              {connected ? (
                <Button variant="outlined" color="error" disabled={pending || readOnly} onClick={() => setConfirming(provider)}>
                  {t('pages.profile.disconnect', { provider: PROVIDER_NAMES[provider] })}
                </Button>
              ) : (
                <Button variant="outlined" disabled={pending || readOnly} onClick={() => void connect(provider)}>
                  {t('pages.profile.connect', { provider: PROVIDER_NAMES[provider] })}
                </Button>
              )}
            </Box>
          );
        })}
      </Box>
      <ConfirmDialog
        open={confirming !== null}
        title={t('pages.profile.confirmDisconnectTitle', { provider: confirming ? PROVIDER_NAMES[confirming] : '' })}
        confirmLabel={t('pages.profile.confirmDisconnect')}
        cancelLabel={t('pages.profile.cancel')}
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void disconnect(confirming)}
      >
        {t(confirming === 'facebook' ? 'pages.profile.confirmDisconnectFacebook' : 'pages.profile.confirmDisconnectText', {
          provider: confirming ? PROVIDER_NAMES[confirming] : '',
        })}
      </ConfirmDialog>
    </>
  );
}
