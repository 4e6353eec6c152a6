import Box from '@mui/material/Box';
import { ThemedLayoutContextProvider } from '@refinedev/mui';
import type { ReactNode } from 'react';
import { AccountHeader } from './AccountHeader.js';
import { ArrivalNotice } from './ArrivalNotice.js';
import { PastDueBanner } from './PastDueBanner.js';
import { ReadOnlyViewBanner } from './ReadOnlyViewBanner.js';
import { Sider } from './Sider.js';
import { SuccessNotice } from './SuccessNotice.js';
import { MAIN_CONTENT_ID } from './SkipLink.js';

/**
 * The signed-in frame's boxes: the sider beside a column of the header and the main area, on Refine's
 * layout state (collapsed sider, phone drawer) that Sider and AccountHeader read. Refine's ThemedLayout
 * draws the same boxes, but it names its own ThemedSider and ThemedHeader as defaults, so every signed-in
 * screen carried them (and MUI's Tooltip with Popper) without ever rendering them. Issue 47: a read-only view
 * of a customer's account says so above the header, on every page; above every page, the banner of an overdue
 * payment (issue 46 item 5).
 */
export function Frame({ children }: { children: ReactNode }) {
  return (
    <ThemedLayoutContextProvider>
      <Box sx={{ display: 'flex', flexDirection: 'row' }}>
        <Sider />
        <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: '1px', minHeight: '1px' }}>
          <ReadOnlyViewBanner />
          <AccountHeader />
          <Box
            component="main"
            id={MAIN_CONTENT_ID}
            tabIndex={-1}
            sx={{ p: { xs: 1, md: 2, lg: 3 }, flexGrow: 1, bgcolor: 'background.default', outline: 'none' }}
          >
            <PastDueBanner />
            <ArrivalNotice />
            <SuccessNotice />
            {children}
          </Box>
        </Box>
      </Box>
    </ThemedLayoutContextProvider>
  );
}
