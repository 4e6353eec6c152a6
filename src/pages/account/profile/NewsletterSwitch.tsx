import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useUpdate } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/**
 * Subscribe or unsubscribe at once: the switch moves right away and moves back if the server refuses
 * (its reason is a notification); the line under it says what the switch now means.
 */
export function NewsletterSwitch({ user, onSaved }: { user: Me; onSaved: (user: Me) => void }) {
  const { t } = useTranslation();
  const { mutate } = useUpdate<Me, DataError>();
  const readOnly = useReadOnly();
  const [checked, setChecked] = useState(user.newsletter);
  const [changed, setChanged] = useState(false);
  const toggle = (newsletter: boolean) => {
    setChecked(newsletter);
    mutate(
      { resource: 'users', id: 'me', values: { newsletter }, successNotification: false },
      {
        onSuccess: ({ data }) => {
          setChanged(true);
          setChecked(data.newsletter);
          onSaved(data);
        },
        onError: () => setChecked(!newsletter),
      },
    );
  };
  return (
    <>
      <FormControlLabel
        control={<Switch checked={checked} disabled={readOnly} onChange={(event) => toggle(event.target.checked)} />}
        label={t('pages.profile.newsletterLabel')}
      />
      {changed && (
        <Typography role="status" color="text.secondary">
          {t(checked ? 'pages.profile.subscribed' : 'pages.profile.unsubscribed')}
        </Typography>
      )}
    </>
  );
}
