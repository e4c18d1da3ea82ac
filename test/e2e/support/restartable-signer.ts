import type { MintSigner } from '../../../oracle/src/chain/mint-signer.ts';

/**
 * The oracle's mint signer, replaced as an operator's restart with another PLATFORM_SIGNER (or
 * PLATFORM_SIGNER_KEY) replaces it: the running oracle keeps this object, `restartWith` closes
 * the old key and signs with the next from then on.
 */
export function restartableSigner(initial: MintSigner): { signer: MintSigner; restartWith(next: MintSigner): Promise<void> } {
  let current = initial;
  return {
    signer: {
      get address() {
        return current.address;
      },
      get backend() {
        return current.backend;
      },
      get keyReference() {
        return current.keyReference;
      },
      sign: (input) => current.sign(input),
      close: () => current.close(),
    },
    async restartWith(next) {
      await current.close();
      current = next;
    },
  };
}
