import { useCallback, useState } from 'react';
import { authProvider } from '../../../providers/index.js';
import type { LoginParams } from '../../../providers/authProvider.js';

/**
 * Sign-in for the public pages, straight on the auth provider (the public pages run without <Refine>
 * to stay light). Resolves to null on success or the messageKey of the failure.
 */
export function useSignIn() {
  const [pending, setPending] = useState(false);
  const signIn = useCallback(async (params: LoginParams): Promise<string | null> => {
    setPending(true);
    try {
      const result = await authProvider.login(params);
      return result.success ? null : (result.error?.message ?? 'DEFAULT');
    } finally {
      setPending(false);
    }
  }, []);
  return { signIn, pending };
}
