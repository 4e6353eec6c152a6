import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput, type TextInputProps } from './TextInput.js';

/**
 * A password field whose text the person can show and hide again. The toggle is the field's end
 * adornment as it is: MUI's InputAdornment would add only its margin, and about 1 KB to the sign-in
 * pages, whose budget (160 KB) it does not fit.
 */
export function PasswordInput(props: Omit<TextInputProps, 'type' | 'endAdornment'>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      type={shown ? 'text' : 'password'}
      endAdornment={
        <IconButton
          onClick={() => setShown((current) => !current)}
          aria-label={t(shown ? 'pages.login.hidePassword' : 'pages.login.showPassword')}
          edge="end"
          sx={{ ml: 1 }}
        >
          {shown ? <VisibilityOff /> : <Visibility />}
        </IconButton>
      }
    />
  );
}
