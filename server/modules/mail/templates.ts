import { translate, type Language } from '../../i18n.js';

export type MailKind = 'verification' | 'verificationLink' | 'alreadyVerified' | 'passwordReset' | 'duplicateRefunded' | 'refundConfirmed' | 'accountDeleted' | 'emailChangeCode' | 'emailChangeTaken' | 'emailChanged'
  // Issue 44: changes to the account's second factor, and sign-ins, told to its owner.
  | 'twoFactorEnabled' | 'twoFactorDisabled' | 'twoFactorReset' | 'passkeyAdded' | 'passkeyRemoved' | 'newSignIn' | 'tokenReused'
  // Issue 46: a failed renewal (its first failure, and a day before Paddle's last try), a card about to expire.
  | 'paymentFailed' | 'paymentFinalNotice' | 'cardExpiring';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A page of the portal in the reader's language, for links in mails. */
export function appLink(appUrl: string, language: Language, path: string): string {
  return `${appUrl}/${language}${path}`;
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A mail in the user's language from `mail.<kind>` in locales/: a plain-text part and an HTML part.
 * The HTML part is the escaped text with paragraphs and links.
 */
export function renderMail(kind: MailKind, language: Language, values: Record<string, string>): RenderedMail {
  const subject = translate(language, `mail.${kind}.subject`, values);
  const text = `${translate(language, `mail.${kind}.body`, values)}\n\n${translate(language, 'mail.signature')}`;
  // The texts are ours and hold no markup, so escaping the whole rendered text escapes every value in it.
  const paragraphs = escapeHtml(text)
    .replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`)
    .split('\n\n')
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5">${paragraphs}</body></html>`;
  return { subject, text, html };
}
