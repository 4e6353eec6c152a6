import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { BillingAddressForm } from '../../../billing/BillingAddressForm.js';

/** The region and VAT dialog: the buyer's address and business, after which the transaction is made anew. */
export function RegionDialog({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="region-title" fullWidth maxWidth="sm">
      <DialogTitle id="region-title">{t('pages.checkout.regionAndVat')}</DialogTitle>
      <DialogContent>
        <Box sx={{ pt: 1 }}>
          <BillingAddressForm onCancel={onClose} onSaved={onSaved} />
        </Box>
      </DialogContent>
    </Dialog>
  );
}
