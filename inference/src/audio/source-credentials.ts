/**
 * An edit's source song as a C2PA ingredient. The worker reads the source's published MP3 back
 * from storage, checks it is the file the source job completed with (its `audio_hash` and its
 * active manifest's label), takes its manifest store out of the ID3 GEOB frame and validates it
 * with c2pa-ts. `finishMp3` then carries that whole store into the edit's own store and names
 * its active manifest in a `c2pa.ingredient.v3` assertion (`parentOf`), so a reader walks an
 * edit of an edit back to the song first made from a prompt.
 */
import { createHash } from 'node:crypto';
import type { Asset } from '@trustnxt/c2pa-ts/asset';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import { ManifestStore } from '@trustnxt/c2pa-ts/manifest';
import type { ValidationStatusEntry } from '@trustnxt/c2pa-ts/manifest';
import { contentHash } from '../../../core/src/content-hash.ts';
import { fail, ok } from '../../../core/src/result.ts';
import type { Result } from '../../../core/src/result.ts';
import { readGeobFrame, readId3Frames, readTextFrame } from './id3-tag.ts';

/** The GEOB MIME type C2PA 2.x gives an MP3's manifest store. */
const C2PA_GEOB_MIME = 'application/c2pa';
/** A JUMBF box's header: LBox and TBox (the boxes here are far below 4 GiB, so no XLBox). */
const BOX_HEADER_BYTES = 8;

/** One validation status entry as an ingredient's `validationResults` records it. */
export type IngredientStatus = Omit<ValidationStatusEntry, 'success'>;

/** What the edit's manifest says about its source. */
export interface SourceCredentials {
  /** The source's title (its TIT2 frame) and format. */
  title: string;
  format: 'audio/mpeg';
  /** The source's whole manifest store (JUMBF), carried into the edit's store unchanged. */
  store: Uint8Array<ArrayBuffer>;
  /** The source's active manifest: its label, its claim's instance id, and the hashes of its box and signature box. */
  manifestLabel: string;
  instanceId: string;
  manifestHash: Uint8Array;
  signatureHash: Uint8Array;
  /** The source's audio hash (SHA-256 of its MP3, what its mint signed). */
  audioHash: string;
  /** What validating the source's active manifest found, as the ingredient records it. */
  validation: { success: IngredientStatus[]; informational: IngredientStatus[]; failure: IngredientStatus[] };
}

export interface SourceCredentialsError {
  code: 'EDIT_SOURCE_INVALID';
  message: string;
}

/** The MP3's bytes as c2pa-ts's validator reads an asset (the hard binding's own exclusions apply). */
function bytesAsset(bytes: Uint8Array, store: Uint8Array): Asset {
  return {
    mimeType: 'audio/mpeg',
    getDataLength: () => bytes.length,
    getDataRange: (start = 0, length = bytes.length - start) => Promise.resolve(bytes.subarray(start, start + length)),
    getManifestJUMBF: () => store,
    dumpInfo: () => `MP3, ${bytes.length} bytes`,
    ensureManifestSpace: () => Promise.reject(new Error('read-only asset')),
    getHashExclusionRange: () => ({ start: 0, length: 0 }),
    writeManifestJUMBF: () => Promise.reject(new Error('read-only asset')),
  };
}

/** SHA-256 of a JUMBF box's payload (after its header), as C2PA hashes a manifest or signature box. */
function boxPayloadHash(box: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(box.subarray(BOX_HEADER_BYTES)).digest());
}

function toStatus(entry: ValidationStatusEntry): IngredientStatus {
  return {
    code: entry.code,
    ...(entry.url === undefined ? {} : { url: entry.url }),
    ...(entry.explanation === undefined ? {} : { explanation: entry.explanation }),
  };
}

/**
 * Reads and checks a source song's content credentials from its published MP3. `expected` is
 * what the source job recorded at completion; a file that does not match it, or whose manifest
 * does not validate, is refused.
 */
export async function readSourceCredentials(
  mp3: Uint8Array,
  expected: { audioHash: string; manifestLabel: string | null },
): Promise<Result<SourceCredentials, SourceCredentialsError>> {
  const refuse = (message: string) => fail<SourceCredentialsError>({ code: 'EDIT_SOURCE_INVALID', message });
  const audioHash = contentHash(mp3);
  if (audioHash !== expected.audioHash) return refuse(`the source MP3 hashes to ${audioHash}, its job recorded ${expected.audioHash}`);
  const frames = readId3Frames(mp3);
  if (frames === null) return refuse('the source MP3 has no readable ID3v2.4 tag');
  const geob = frames
    .filter((f) => f.id === 'GEOB')
    .map(readGeobFrame)
    .find((g) => g?.mimeType === C2PA_GEOB_MIME);
  if (geob === undefined || geob === null) return refuse('the source MP3 carries no C2PA manifest store');
  const titleFrame = frames.find((f) => f.id === 'TIT2');
  const title = (titleFrame === undefined ? null : readTextFrame(titleFrame)) ?? 'Untitled';

  const storeBytes = new Uint8Array(geob.object);
  let store: ManifestStore;
  try {
    store = ManifestStore.read(SuperBox.fromBuffer(storeBytes));
  } catch (error) {
    return refuse(`the source's manifest store does not parse: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The edit's store re-emits these boxes: they must come out byte for byte as they went in.
  if (Buffer.compare(Buffer.from(store.getBytes()), Buffer.from(storeBytes)) !== 0) {
    return refuse("c2pa-ts does not re-emit the source's manifest store unchanged");
  }
  const active = store.getActiveManifest();
  const label = active?.label;
  const instanceId = active?.claim?.instanceID;
  const signatureBox = active?.signature?.sourceBox;
  const manifestBox = active?.sourceBox;
  if (active === undefined || label === undefined || instanceId === undefined || signatureBox === undefined || manifestBox === undefined) {
    return refuse("the source's manifest store has no complete active manifest");
  }
  if (expected.manifestLabel !== null && label !== expected.manifestLabel) {
    return refuse(`the source's active manifest is ${label}, its job recorded ${expected.manifestLabel}`);
  }
  const result = await store.validate(bytesAsset(mp3, storeBytes));
  const entries = result.statusEntries;
  const failure = entries.filter((e) => !e.success).map(toStatus);
  if (!result.isValid || failure.length > 0) {
    return refuse(`the source's manifest does not validate: ${failure.map((e) => e.code).join(', ') || 'invalid'}`);
  }
  // Trust is the reader's to judge against its own anchors: c2pa-ts here checks signature and
  // bindings only, so a trust verdict of its own is not recorded.
  const success = entries.filter((e) => e.success === true && !e.code.startsWith('signingCredential.')).map(toStatus);
  return ok({
    title,
    format: 'audio/mpeg',
    store: storeBytes,
    manifestLabel: label,
    instanceId,
    manifestHash: boxPayloadHash(manifestBox.toBuffer(false)),
    signatureHash: boxPayloadHash(signatureBox.toBuffer(false)),
    audioHash,
    validation: { success, informational: [], failure: [] },
  });
}
