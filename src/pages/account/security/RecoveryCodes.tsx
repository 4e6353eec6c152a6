import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime } from '../../../format/index.js';
import './texts.js';

/** The codes as a text file: who they are for, when they were made, one code a line. */
export function recoveryCodesFile(codes: readonly string[], heading: { title: string; note: string }): string {
  return [heading.title, heading.note, '', ...codes, ''].join('\n');
}

/**
 * The ten recovery codes, shown once (issue 44): after the authenticator app is turned on and after new ones
 * are made. Copy and download them as a text file; "I have saved them" hides them for good (the server keeps
 * only their digests). The heading takes the focus as they appear, so a screen reader reads them next.
 */
export function RecoveryCodes({ codes, email, onDone }: { codes: readonly string[]; email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const copy = async () => {
    await navigator.clipboard.writeText(codes.join('\n'));
    setCopied(true);
  };

  const download = () => {
    const now = new Date().toISOString();
    const text = recoveryCodesFile(codes, {
      title: t('security:recoveryCodes.fileTitle', { email }),
      note: t('security:recoveryCodes.fileNote', { date: formatDateTime(now, language) }),
    });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    link.download = `shapelab-recovery-codes-${now.slice(0, 10)}.txt`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(link.href);
  };

  return (
    <Box component="section" aria-labelledby={titleId} data-testid="recovery-codes" sx={{ border: 1, borderColor: 'warning.main', borderRadius: 1, p: 2, my: 2 }}>
      <Typography id={titleId} ref={heading} tabIndex={-1} variant="subtitle1" component="h3" sx={{ fontWeight: 600, outline: 'none' }}>
        {t('security:recoveryCodes.title')}
      </Typography>
      <Typography sx={{ my: 1 }}>{t('security:recoveryCodes.text')}</Typography>
      <Box
        component="ol"
        aria-label={t('security:recoveryCodes.listLabel')}
        sx={{ fontFamily: 'monospace', fontSize: '1.1rem', columns: { xs: 1, sm: 2 }, pl: 4, my: 2 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button variant="outlined" onClick={() => void copy().catch(() => setCopied(false))}>
          {t('security:recoveryCodes.copy')}
        </Button>
        <Button variant="outlined" onClick={download}>
          {t('security:recoveryCodes.download')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('security:recoveryCodes.done')}
        </Button>
      </Stack>
      <Box role="status" aria-live="polite">
        {copied && (
          <Alert severity="success" sx={{ mt: 2 }}>
            {t('security:recoveryCodes.copied')}
          </Alert>
        )}
      </Box>
    </Box>
  );
}
