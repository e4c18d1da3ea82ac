/**
 * Local IPFS content: UnixFS (the importer/exporter Helia uses) over a filesystem blockstore,
 * with no libp2p node. Adding computes the CID under the pinned profile and keeps the blocks;
 * reading never leaves this machine. Publication to the IPFS network is the remote pinning
 * service's job (pinning-client.ts), which fetches the blocks or receives them from a gateway.
 */
import { unixfs } from '@helia/unixfs';
import type { UnixFS } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import type { DomainError, Result } from '../../../core/src/result.ts';
import { boundedStep } from '../../../core/src/startup.ts';
import { cidProfileOptions } from './cid-profile.ts';

export type IpfsErrorCode = 'invalid_cid' | 'not_found' | 'too_large' | 'failed';

export type IpfsError = DomainError<IpfsErrorCode>;

export type IpfsResult<T> = Result<T, IpfsError>;

export interface IpfsContentStore {
  /** Stores the bytes as one UnixFS file and returns its CID under the pinned profile. */
  add(bytes: Uint8Array): Promise<CID>;
  /** The whole file behind a CID held locally, refusing files above `maxBytes`. */
  cat(cid: CID, maxBytes: number): Promise<IpfsResult<Uint8Array>>;
  has(cid: CID): Promise<boolean>;
  close(): Promise<void>;
}

export function parseCid(text: string): IpfsResult<CID> {
  try {
    return { ok: true, value: CID.parse(text) };
  } catch {
    return { ok: false, error: { code: 'invalid_cid', message: `not a CID: ${text.slice(0, 100)}` } };
  }
}

/** Opening a blockstore only creates its folder: anything near this bound means a stuck filesystem. */
const OPEN_TIMEOUT_MS = 30_000;

export async function openIpfsContentStore(directory: string): Promise<IpfsContentStore> {
  const blockstore = new FsBlockstore(directory);
  await boundedStep({
    component: 'ipfs',
    step: `open the blockstore in ${directory}`,
    main: true,
    timeoutMs: OPEN_TIMEOUT_MS,
    run: () => blockstore.open(),
  });
  const fs: UnixFS = unixfs({ blockstore });
  return {
    add(bytes) {
      return fs.addBytes(bytes, cidProfileOptions());
    },

    async cat(cid, maxBytes) {
      if (!(await blockstore.has(cid))) {
        return { ok: false, error: { code: 'not_found', message: `${cid.toString()} is not held locally` } };
      }
      try {
        const stat = await fs.stat(cid, { offline: true });
        if (stat.type !== 'file' && stat.type !== 'raw') {
          return { ok: false, error: { code: 'not_found', message: `${cid.toString()} is not a file` } };
        }
        if (stat.size > BigInt(maxBytes)) {
          return { ok: false, error: { code: 'too_large', message: `${cid.toString()} exceeds ${maxBytes} bytes` } };
        }
        const chunks: Uint8Array[] = [];
        for await (const chunk of fs.cat(cid, { offline: true })) chunks.push(chunk);
        return { ok: true, value: new Uint8Array(Buffer.concat(chunks)) };
      } catch (error) {
        // A root held without all of its children, or a block that fails to decode.
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: { code: 'failed', message } };
      }
    },

    has(cid) {
      return blockstore.has(cid);
    },

    close() {
      return blockstore.close();
    },
  };
}
