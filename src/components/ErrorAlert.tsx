import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

/** A server error shown by its messageKey, translated (DEFAULT when unknown). */
export function ErrorAlert({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation();
  if (!messageKey) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} role="alert">
      {t(`errors.${messageKey}`, { defaultValue: t('errors.DEFAULT') })}
    </Alert>
  );
}
