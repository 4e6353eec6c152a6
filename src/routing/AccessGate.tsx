import { CanAccess } from '@refinedev/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useLocale } from '../components/LocaleScope.js';
import type { ResourceName } from './routes.js';

/**
 * A signed-in screen shows only when the access control provider lets the user see its resource
 * (spec section 6: admin screens need the admin role); otherwise the user goes to the root (spec
 * section 2). The server checks every call again. A lazy chunk of the signed-in frame: public pages never
 * load Refine.
 */
export default function AccessGate({ resource, children }: { resource: ResourceName; children: ReactNode }) {
  const { localize } = useLocale();
  return (
    <CanAccess resource={resource} action="list" fallback={<Navigate to={localize('/')} replace />}>
      {children}
    </CanAccess>
  );
}
