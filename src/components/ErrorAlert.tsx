import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../providers/errors.js';

/** A server error shown by its messageKey, translated (DEFAULT when unknown). */
export function ErrorAlert({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation();
  if (!messageKey) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} role="alert">
      {errorText(t, messageKey)}
    </Alert>
  );
}
