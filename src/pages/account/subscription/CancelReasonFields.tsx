import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CANCEL_REASONS, type CancelReason } from '../../../../contract/subscription-values.js';

/** Why the customer cancels (issue 46 item 8): one of a few reasons and their own words, both optional. */
export interface CancelWhy {
  reason: CancelReason | null;
  comment: string;
}

/** The longest comment the server keeps (contract/subscription.ts cancelRequestSchema). */
const COMMENT_MAX = 500;

/** The cancel dialog's question: a reason among a few, and a text of the customer's own. */
export function CancelReasonFields({ value, onChange }: { value: CancelWhy; onChange: (next: CancelWhy) => void }) {
  const { t } = useTranslation();
  const legendId = useId();
  return (
    <FormControl component="fieldset" sx={{ mt: 2, display: 'block' }} data-testid="cancel-reason">
      <FormLabel component="legend" id={legendId}>
        {t('pages.subscription.reasonLegend')}
      </FormLabel>
      <RadioGroup aria-labelledby={legendId} value={value.reason ?? ''} onChange={(event) => onChange({ ...value, reason: event.target.value as CancelReason })}>
        {CANCEL_REASONS.map((reason) => (
          <FormControlLabel key={reason} value={reason} control={<Radio size="small" />} label={t(`pages.subscription.reasons.${reason}`)} />
        ))}
      </RadioGroup>
      <TextField
        label={t('pages.subscription.comment')}
        value={value.comment}
        onChange={(event) => onChange({ ...value, comment: event.target.value.slice(0, COMMENT_MAX) })}
        multiline
        minRows={2}
        fullWidth
        size="small"
        sx={{ mt: 1 }}
        slotProps={{ htmlInput: { maxLength: COMMENT_MAX } }}
      />
    </FormControl>
  );
}

/** What the cancel request says of why: the reason when one was chosen, the words when there are any. */
export function whyOf(why: CancelWhy): { reason?: CancelReason; comment?: string } {
  const comment = why.comment.trim();
  return { ...(why.reason ? { reason: why.reason } : {}), ...(comment ? { comment } : {}) };
}
