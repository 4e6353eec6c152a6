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
    // Issue 48 item 11: a button's label is one line ("ADD DISCOUNT / CODE" was two on a phone). A row of
    // buttons wraps as a whole instead (flexWrap where they stand side by side; the dialogs' and cards'
    // action rows below), and a label too long for a phone is shortened (tests/e2e/route-walk.ts checks both).
    MuiButton: { styleOverrides: { root: { whiteSpace: 'nowrap' } } },
    // MUI spaces actions with a left margin on every button but the first; a gap (where spacing is on)
    // spaces them on both axes once the row wraps.
    MuiDialogActions: { styleOverrides: { root: { flexWrap: 'wrap' }, spacing: { gap: 8, '& > :not(style) ~ :not(style)': { marginLeft: 0 } } } },
    MuiCardActions: { styleOverrides: { root: { flexWrap: 'wrap' }, spacing: { gap: 8, '& > :not(style) ~ :not(style)': { marginLeft: 0 } } } },
    // A pager's "Rows per page", its count and its arrows did not fit a phone's row: the arrows ran out of
    // the card. They wrap below, at the right, with the spacer left no wider than the room it has.
    MuiTablePagination: { styleOverrides: { toolbar: { flexWrap: 'wrap', justifyContent: 'flex-end' }, spacer: { flex: '1 1 0' } } },
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
});
