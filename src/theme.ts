import { createTheme } from '@mui/material/styles';

/** The portal's one theme. Colours meet WCAG AA contrast on their backgrounds. */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#1565c0' },
    secondary: { main: '#6a1b9a' },
    background: { default: '#f5f7fa' },
  },
  shape: { borderRadius: 8 },
  components: {
    // MUI's unselected toggle text (54% black) falls under 4.5:1 on the grey app bar.
    MuiToggleButton: { styleOverrides: { root: { color: 'rgba(0, 0, 0, 0.72)' } } },
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
});
