import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCreate, useCustomMutation, useDelete, useList, useNotification, useUpdate } from '@refinedev/core';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyView, Reauthentication } from '../../../../contract/two-factor.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { ResponsiveTable } from '../../../components/ResponsiveTable.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import { supportsPasskeys } from '../../../passkeys/support.js';
import { deviceOf } from './deviceName.js';
import { PasskeyNameDialog, ReauthDialog } from './lazyParts.js';
import type { Proof } from './proof.js';
import './texts.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

type WebAuthnJson = Record<string, unknown>;

/**
 * The account's passkeys (issue 44): a sign-in without the password, and a second step. Adding one (named,
 * by default after this browser and system), the list with when each was added and last used, renaming, and
 * removing one (proven in the reauthentication dialog). The WebAuthn code loads only when one is added.
 * `onChanged` reads the second factor's state and the user again after a passkey came or went.
 */
export function PasskeysSection({ proof, onChanged }: { proof: Proof; onChanged: () => Promise<void> }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language } = useLocale();
  const { open: notify } = useNotification();
  const { result, query } = useList<PasskeyView, DataError>({ resource: 'passkeys', pagination: { mode: 'off' }, errorNotification: false });
  const { mutateAsync: registration } = useCustomMutation<{ options: WebAuthnJson }, DataError>();
  const { mutateAsync: create } = useCreate<PasskeyView, DataError, { name: string; response: WebAuthnJson }>();
  const { mutateAsync: rename } = useUpdate<PasskeyView, DataError, { name: string }>();
  const { mutateAsync: remove } = useDelete<PasskeyView, DataError>();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<PasskeyView | null>(null);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const supported = supportsPasskeys();
  const device = deviceOf(navigator.userAgent);
  const defaultName = t('security:passkeys.defaultName', {
    browser: device.browser ?? t('security:passkeys.unknownBrowser'),
    system: device.system ?? t('security:passkeys.unknownSystem'),
  });

  /** The server's options, the browser's new passkey, the server's check: the messageKey of a refusal, or null. */
  const add = async (name: string): Promise<string | null> => {
    try {
      const { data } = await registration({ url: '/users/me/passkeys/registration', method: 'post', values: {}, errorNotification: false });
      const webauthn = await import('../../../passkeys/webauthn.js');
      let response: WebAuthnJson;
      try {
        response = await webauthn.createPasskey(data.options);
      } catch (error) {
        // Closed by the person: nothing happened, nothing to say.
        if (webauthn.isCancelled(error)) {
          setAdding(false);
          return null;
        }
        return webauthn.isAlreadyRegistered(error) ? 'PASSKEY_ALREADY_REGISTERED' : 'PASSKEY_VERIFICATION_FAILED';
      }
      await create({ resource: 'passkeys', values: { name, response }, successNotification: false, errorNotification: false });
      setAdding(false);
      notify?.({ type: 'success', message: t('security:passkeys.added', { name }) });
      await onChanged();
      return null;
    } catch (error) {
      return messageKeyOf(error);
    }
  };

  const saveName = async (passkey: PasskeyView, name: string): Promise<string | null> => {
    try {
      await rename({ resource: 'passkeys', id: passkey.id, values: { name }, successNotification: false, errorNotification: false });
      setRenaming(null);
      notify?.({ type: 'success', message: t('security:passkeys.renamed', { name }) });
      return null;
    } catch (error) {
      return messageKeyOf(error);
    }
  };

  const removeOne = async (passkey: PasskeyView, given: Reauthentication): Promise<string | null> => {
    try {
      await remove({ resource: 'passkeys', id: passkey.id, values: given, successNotification: false, errorNotification: false });
      setRemoving(null);
      notify?.({ type: 'success', message: t('security:passkeys.removed') });
      await onChanged();
      return null;
    } catch (error) {
      return messageKeyOf(error);
    }
  };

  const when = (iso: string | null) => (iso ? formatDateTime(iso, language) : t('security:passkeys.never'));
  const passkeys = query.isSuccess ? result.data : null;

  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('security:passkeys.intro')}</Typography>
      {query.isLoading && <FullPageSpinner minHeight={80} />}
      {query.isError && <ErrorAlert messageKey={messageKeyOf(query.error)} />}
      {passkeys && passkeys.length === 0 && <Typography sx={{ mb: 2 }}>{t('security:passkeys.none')}</Typography>}
      {passkeys && passkeys.length > 0 && (
        // Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): rename and remove always in view.
        <Box sx={{ mb: 2 }}>
          <ResponsiveTable
            label={t('security:passkeys.tableLabel')}
            rows={passkeys}
            rowKey={(passkey) => passkey.id}
            rowTestId={() => 'passkey'}
            columns={[
              { key: 'name', header: t('security:passkeys.name'), cell: (passkey) => passkey.name },
              { key: 'lastUsed', header: t('security:passkeys.lastUsed'), cell: (passkey) => when(passkey.lastUsedAt), nowrap: true },
              { key: 'created', header: t('security:passkeys.created'), cell: (passkey) => when(passkey.createdAt), nowrap: true },
            ]}
            actionsHeader={t('security:passkeys.actions')}
            actions={(passkey) => (
              <>
                <Button size="small" disabled={readOnly} onClick={() => setRenaming(passkey)} aria-label={t('security:passkeys.renameLabel', { name: passkey.name })}>
                  {t('security:passkeys.rename')}
                </Button>
                <Button size="small" color="error" disabled={readOnly} onClick={() => setRemoving(passkey)} aria-label={t('security:passkeys.removeLabel', { name: passkey.name })}>
                  {t('security:passkeys.remove')}
                </Button>
              </>
            )}
          />
        </Box>
      )}
      {supported ? (
        <Button variant="contained" disabled={readOnly} onClick={() => setAdding(true)}>
          {t('security:passkeys.add')}
        </Button>
      ) : (
        <Alert severity="info">{t('security:passkeys.unsupported')}</Alert>
      )}
      <Suspense fallback={null}>
        {adding && (
          <PasskeyNameDialog
            open
            title={t('security:passkeys.addTitle')}
            text={t('security:passkeys.addText')}
            initialName={defaultName}
            confirmLabel={t('security:passkeys.create')}
            onCancel={() => setAdding(false)}
            onSubmit={add}
          />
        )}
        {renaming && (
          <PasskeyNameDialog
            open
            title={t('security:passkeys.renameTitle')}
            initialName={renaming.name}
            confirmLabel={t('security:passkeys.save')}
            onCancel={() => setRenaming(null)}
            onSubmit={(name) => saveName(renaming, name)}
          />
        )}
        {removing && (
          <ReauthDialog
            open
            title={t('security:reauth.removePasskey', { name: removing.name })}
            text={t('security:reauth.removePasskeyText')}
            confirmLabel={t('security:reauth.confirmRemove')}
            proof={proof}
            onCancel={() => setRemoving(null)}
            onConfirm={(given) => removeOne(removing, given)}
          />
        )}
      </Suspense>
    </>
  );
}
