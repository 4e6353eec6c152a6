import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { addMonths } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatLongDate } from '../../../format/index.js';

/** How long a pause lasts: a number of months from its start, or until the customer resumes. */
export type PauseLength = 1 | 2 | 3 | 'open';
const LENGTHS: PauseLength[] = [1, 2, 3, 'open'];

/** The resume date a pause starting at `startsAt` asks Paddle for; none for an open pause. */
export function resumeAtOf(startsAt: string, length: PauseLength): string | undefined {
  return length === 'open' ? undefined : addMonths(new Date(startsAt), length).toISOString();
}

/** The pause dialog's choice (issue 46 item 7): resume after one, two or three months, or when the customer says. */
export function PauseChoice({ startsAt, value, onChange }: { startsAt: string; value: PauseLength; onChange: (length: PauseLength) => void }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  return (
    <RadioGroup
      aria-label={t('pages.subscription.pauseFor')}
      value={String(value)}
      onChange={(event) => onChange(event.target.value === 'open' ? 'open' : (Number(event.target.value) as PauseLength))}
      sx={{ mt: 1 }}
      data-testid="pause-choice"
    >
      {LENGTHS.map((length) => (
        <FormControlLabel
          key={length}
          value={String(length)}
          control={<Radio size="small" />}
          label={
            length === 'open'
              ? t('pages.subscription.pauseOpen')
              : t('pages.subscription.pauseMonths', { count: length, date: formatLongDate(resumeAtOf(startsAt, length) as string, language) })
          }
        />
      ))}
    </RadioGroup>
  );
}
