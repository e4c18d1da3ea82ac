import { SongmintClientError } from '@songmint/sdk';
import type { SongmintApi } from '@songmint/sdk';
import type { Address } from 'viem';
import { useSession } from '../provider.ts';

export interface SignedIn {
  api: SongmintApi;
  address: Address;
}

/** The signed-in API and address, or undefined: queries that need a session wait for one. */
export function useSignedIn(): SignedIn | undefined {
  const { api, session } = useSession();
  return api === undefined || session === undefined ? undefined : { api, address: session.address };
}

/** For a mutation: the session, or NOT_SIGNED_IN. */
export function requireSignedIn(signedIn: SignedIn | undefined): SignedIn {
  if (signedIn === undefined) throw new SongmintClientError('NOT_SIGNED_IN', 'sign in first (useSignIn)');
  return signedIn;
}
