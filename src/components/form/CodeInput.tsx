import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export const CODE_LENGTH = 6;

/**
 * A pasted one-time code: whitespace and dashes are ignored (codes are often copied as "123 456");
 * anything else that is not a digit makes the paste invalid (spec section 5).
 */
export function parsePastedCode(text: string, length = CODE_LENGTH): { digits: string } | { invalid: true } {
  const cleaned = text.replace(/[\s-]/g, '');
  if (cleaned === '' || !/^\d+$/.test(cleaned)) return { invalid: true };
  return { digits: cleaned.slice(0, length) };
}

/** Six single-digit boxes with paste support, typed digits moving focus forward and Backspace back. */
export function CodeInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  onPasteError: (message: string | undefined) => void;
  /** The first box takes the focus on mount: the code is the one thing to enter (issue 20 item 11). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length: CODE_LENGTH }, (_, i) => props.value[i] ?? '');

  const setDigit = (index: number, digit: string) => {
    const next = digits.slice();
    next[index] = digit;
    props.onChange(next.join('').slice(0, CODE_LENGTH));
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const parsed = parsePastedCode(event.clipboardData.getData('text'));
    if ('invalid' in parsed) {
      props.onPasteError(t('validation.invalidPastedOtp'));
      return;
    }
    props.onPasteError(undefined);
    props.onChange(parsed.digits);
    boxes.current[Math.min(parsed.digits.length, CODE_LENGTH - 1)]?.focus();
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) boxes.current[index - 1]?.focus();
  };

  return (
    <Box role="group" aria-labelledby="code-label" aria-describedby={props.error ? 'code-error' : undefined}>
      <Box id="code-label" component="span" sx={{ display: 'block', mb: 1 }}>
        {t('pages.confirm.code')}
      </Box>
      {/* Six columns that shrink with the card (issue 48 item 7: at a fixed width each, they ran past it on a phone). */}
      <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${CODE_LENGTH}, minmax(0, 3.5rem))`, gap: { xs: 0.75, sm: 1 } }}>
        {digits.map((digit, index) => (
          <OutlinedInput
            key={index}
            sx={{ minWidth: 0, '& input': { px: 0, textAlign: 'center' } }}
            inputRef={(element: HTMLInputElement | null) => {
              boxes.current[index] = element;
            }}
            value={digit}
            autoFocus={props.autoFocus === true && index === 0}
            error={Boolean(props.error)}
            onPaste={onPaste}
            onKeyDown={onKeyDown(index)}
            onChange={(event) => {
              const typed = event.target.value.replace(/\D/g, '').slice(-1);
              setDigit(index, typed);
              if (typed && index < CODE_LENGTH - 1) boxes.current[index + 1]?.focus();
            }}
            inputProps={{
              inputMode: 'numeric',
              autoComplete: index === 0 ? 'one-time-code' : 'off',
              maxLength: 1,
              'aria-label': t('pages.confirm.digit', { position: index + 1, count: CODE_LENGTH }),
            }}
          />
        ))}
      </Box>
      {props.error && (
        <FormHelperText id="code-error" error>
          {props.error}
        </FormHelperText>
      )}
    </Box>
  );
}
