/**
 * The CID profile every Songmint CID is computed with: IPIP-499 `unixfs-v1-2025` (CIDv1, raw
 * leaves, 1 MiB fixed-size chunks, balanced DAG of at most 1024 links per node, links-first
 * field order). It equals @helia/unixfs 8 defaults, Helia 6+, Storacha and Pinata's
 * `unixfs-v1-2025`, but each parameter is set here so that a change of any library default
 * cannot move a CID that a signature or a token URI already commits to.
 *
 * Content of at most one chunk (all metadata JSON, most covers) becomes one raw block, so its
 * CID is `bafkrei...`, the same as `ipfs add --cid-version=1 --raw-leaves` of that file.
 */
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { ImporterOptions } from 'ipfs-unixfs-importer';

export const CID_PROFILE_NAME = 'unixfs-v1-2025';
export const CID_PROFILE_CHUNK_SIZE = 1_048_576;
export const CID_PROFILE_MAX_LINKS = 1024;

/** Importer options of the profile; a fresh object each call (chunkers are stateless, but the importer writes into its options). */
export function cidProfileOptions(): Omit<ImporterOptions, 'onProgress'> {
  return {
    profile: CID_PROFILE_NAME,
    cidVersion: 1,
    rawLeaves: true,
    reduceSingleLeafToSelf: true,
    fieldOrder: 'links-first',
    chunker: fixedSize({ chunkSize: CID_PROFILE_CHUNK_SIZE }),
    layout: balanced({ maxChildrenPerNode: CID_PROFILE_MAX_LINKS }),
  };
}
