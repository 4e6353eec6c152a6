import { Refine } from '@refinedev/core';
import { RefineSnackbarProvider } from '@refinedev/mui';
import { useMemo } from 'react';
import { Outlet } from 'react-router';
import { useAccountTexts } from '../../i18n.js';
import { refinePropsOf } from '../../refine.js';
import { FullPageSpinner } from '../FullPageSpinner.js';
import { useLocale } from '../LocaleScope.js';
import { Frame } from './Frame.js';
import { useNotifications } from './notifications.js';
import { SkipLink } from './SkipLink.js';

// The portal's CSP has no 'unsafe-eval': zod's compiled parsers would probe `new Function` on the first parse,
// which the browser reports as a violation (Lighthouse best practices: "issues logged"). Every parse in the
// browser happens in the signed-in frame (a few small forms), where the interpreted parser is plenty. zod keeps
// its settings on this global so that every copy shares them (zod/v4/core/core.js); importing its `config`
// would add 4 KB to the frame.
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
Object.assign((zodSettings.__zod_globalConfig ??= {}), { jitless: true });

/**
 * The signed-in frame (users and admins): <Refine> with the app's providers around the frame (Frame.tsx)
 * with our menus and header, and Refine's MUI notifications (one place that shows what an action did, in
 * the user's language). It is a lazy chunk: sign-in and registration never load it. One frame serves one
 * server session (`session`, the access token's `sid`), with that session's query client: the app mounts
 * a new frame for another session (src/App.tsx, SignedInFrame).
 */
export default function AccountLayout({ session }: { session: string | null }) {
  const { language } = useLocale();
  const refineProps = useMemo(() => refinePropsOf(session), [session]);
  if (!useAccountTexts(language)) return <FullPageSpinner />;
  return (
    <RefineSnackbarProvider anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Refine {...refineProps} notificationProvider={useNotifications}>
        <SkipLink />
        <Frame>
          <Outlet />
        </Frame>
      </Refine>
    </RefineSnackbarProvider>
  );
}
