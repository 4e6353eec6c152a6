import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useDataProvider } from '@refinedev/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Discount } from '../../../../contract/billing.js';
import { codeFormSchema, type CodeFormValues } from '../../../../contract/forms.js';
import { discountByCodeUrl } from './discounts.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';

/**
 * The discount code dialog: the code is checked by the server before it is used, and its problem
 * (unknown, expired, used up...) is shown under the field in the reader's language.
 */
export function DiscountDialog({ open, onClose, onApplied }: { open: boolean; onClose: () => void; onApplied: (found: { id: string; code: string | null }) => void }) {
  const { t } = useTranslation();
  const dataProvider = useDataProvider();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CodeFormValues>({ resolver: zodResolver(codeFormSchema), defaultValues: { code: '' } });

  const apply = handleSubmit(async ({ code }) => {
    try {
      const { custom } = dataProvider();
      if (!custom) return;
      const { data } = await custom<Discount>({ url: discountByCodeUrl(code), method: 'get' });
      onApplied({ id: data.id, code: data.code });
      reset();
    } catch (failure) {
      setError('code', serverError(messageKeyOf(failure)));
    }
  });
  const message = fieldErrorText(t, errors, 'code');

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="discount-title" fullWidth maxWidth="xs">
      <Box component="form" onSubmit={(event) => void apply(event)} noValidate>
        <DialogTitle id="discount-title">{t('pages.checkout.addDiscount')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('pages.checkout.discountCode')}
            {...register('code')}
            error={Boolean(message)}
            helperText={message}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('pages.checkout.close')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting || !watch('code').trim()}>
            {t('pages.checkout.apply')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
