import { useTheme } from '@mui/material/styles';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { estimateStrength, isTooCommon, type PasswordStrength, type StrengthLanguage } from '../../../contract/password-strength.js';

/** Typing pauses this long before the estimate runs (zxcvbn takes a few milliseconds a password). */
const SETTLE_MS = 150;

const strengthLanguage = (language: string): StrengthLanguage => (language === 'de' ? 'de' : 'en');

/**
 * zxcvbn's estimate of the password being typed, once typing settles; null while there is none for this
 * password. The first character typed loads zxcvbn and its dictionaries (contract/password-strength.ts),
 * never before: the sign-in pages' first bundle has none of it. A failed load shows no hint; the server
 * still applies the rule.
 */
export function usePasswordStrength(password: string): PasswordStrength | null {
  const { i18n } = useTranslation();
  const language = strengthLanguage(i18n.language);
  const [estimate, setEstimate] = useState<{ password: string; language: StrengthLanguage; strength: PasswordStrength } | null>(null);
  useEffect(() => {
    if (password === '') return undefined;
    let current = true;
    const timer = setTimeout(() => {
      estimateStrength(password, language).then(
        (strength) => current && setEstimate({ password, language, strength }),
        () => undefined,
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, language]);
  return estimate && estimate.password === password && estimate.language === language ? estimate.strength : null;
}

/**
 * Issue 44 item 10: whether a form may send this new password, asked as it is submitted (the estimate may
 * not have caught up with the last keystroke). A failed load lets it through: the server refuses it then.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  return isTooCommon(password).catch(() => false);
}

/** Weak in the error colour, good and strong in the success colour, fair as the helper text (each meets AA on the card). */
type Tone = 'error' | 'success' | null;
const TONES: Tone[] = ['error', 'error', null, 'success', 'success'];

/**
 * The text under a new-password field: the rule of spec section 5, then, as the person types, the
 * strength in a word and zxcvbn's advice in the page's language, or that the password is too common (which
 * the server refuses). Spans, so it sits inside the field's helper text and is read with the field.
 */
export function PasswordStrengthHint({ strength }: { strength: PasswordStrength | null }) {
  const { t } = useTranslation();
  const { palette } = useTheme();
  const colour = (tone: Tone) => (tone ? palette[tone].main : undefined);
  const advice = strength?.warning ?? strength?.suggestions[0] ?? null;
  let said: ReactNode = null;
  if (strength?.tooCommon) said = <strong style={{ color: colour('error') }}>{t('errors.PASSWORD_TOO_COMMON')}</strong>;
  else if (strength) {
    const word = t(`validation.passwordStrength.${strength.score}`);
    said = (
      <>
        <strong style={{ color: colour(TONES[strength.score] ?? null) }}>{t('validation.passwordStrength.label', { strength: word })}</strong>
        {advice && ` ${advice}`}
      </>
    );
  }
  return (
    <>
      <span style={{ display: 'block' }}>{t('validation.passwordRule')}</span>
      <span aria-live="polite" style={{ display: 'block' }}>
        {said}
      </span>
    </>
  );
}
