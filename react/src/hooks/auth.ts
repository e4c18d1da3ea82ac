import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult } from '@tanstack/react-query';
import type { SongmintError } from '@songmint/sdk';
import { signInThroughWallet, useSongmintContext } from '../provider.ts';
import { songmintKeys } from '../query-keys.ts';
import type { SongmintSession } from '../session-store.ts';

/**
 * Sign-In with Ethereum through the connected wallet: the API's nonce, an EIP-4361 message the
 * wallet signs, a session token kept by the provider (and refreshed before it expires).
 */
export function useSignIn(): UseMutationResult<SongmintSession, SongmintError, void> {
  const context = useSongmintContext();
  const queryClient = useQueryClient();
  return useMutation<SongmintSession, SongmintError, void>({ mutationFn: () => signInThroughWallet(context, queryClient) });
}

/** Forgets the session and drops the account's cached data (its jobs, uploads, profile). */
export function useSignOut(): () => void {
  const { sessions } = useSongmintContext();
  const queryClient = useQueryClient();
  return () => {
    const session = sessions.get();
    sessions.clear();
    if (session !== undefined) queryClient.removeQueries({ queryKey: songmintKeys.account(session.address) });
  };
}
