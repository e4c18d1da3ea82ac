/**
 * The last step before an MP3 is hashed and published: ID3v2 tags a player shows and a signed
 * C2PA manifest that says, in a form machines read, that the song was made by AI (EU AI Act
 * Art. 50(2)). Every song and preview goes through `finishMp3`, so `audio_hash` is the hash of
 * exactly these bytes.
 *
 * Layout: one ID3v2.4 tag (TIT2 title, TSSE generator, COMM "AI-generated with Songmint", then a
 * GEOB frame `application/c2pa` holding the manifest store), then the encoder's frames untouched.
 * The manifest is built with @trustnxt/c2pa-ts (JUMBF boxes, CBOR claim v2 and assertions,
 * COSE_Sign1); this module places it and computes the hard binding itself, as the reference
 * implementation (c2pa-rs) reads MP3: the `c2pa.hash.data` exclusion is exactly the manifest
 * store's bytes inside the GEOB frame, so the tags and every audio byte are covered. (c2pa-ts's
 * own MP3 writer excludes the whole ID3 tag, which c2pa-rs rejects, and its ECDSA signer writes
 * DER where COSE wants r|s: the identity's signer is used instead.)
 *
 * Assertions: `c2pa.actions.v2` with `c2pa.created`, digitalSourceType trainedAlgorithmicMedia
 * and the model as softwareAgent; `com.songmint.generation` with the generator, the model's
 * name, version and licence, the seed, the prompt's SHA-256 (not the prompt: it is the user's),
 * the job id and whether it is a song or a preview, the sound's Chromaprint fingerprint (its
 * algorithm and AcoustID's compact form, docs/fingerprints.md), the seconds of uploaded audio it keeps
 * verbatim (`outsideAudio`, core/src/outside-audio.ts); and the `c2pa.hash.data` hard binding.
 * The claim's generator is Songmint and its version. A song's WAV and FLAC (lossless.ts) carry the
 * same assertions through `embedManifest`, each bound to its own bytes.
 *
 * An edit (its source's checked credentials in `editOf`) starts from its source's whole manifest
 * store and adds its own manifest to it: `c2pa.ingredient.v3` (`parentOf`) names the source's
 * manifest by hashed URI, and the actions are `c2pa.opened` of that ingredient then
 * `c2pa.edited` (trainedAlgorithmicMedia), so a reader follows edits back to the first prompt.
 * An edit of uploaded audio has no source store to carry: its `parentOf` ingredient names the
 * upload by title, format, instance id and its SHA-256 (metadata), without a manifest of its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { IBox } from '@trustnxt/c2pa-ts/jumbf';
import { CBORBox } from '@trustnxt/c2pa-ts/jumbf';
import {
  ActionAssertion,
  ActionType,
  Assertion,
  ClaimVersion,
  DataHashAssertion,
  DigitalSourceType,
  IngredientAssertion,
  ManifestStore,
  RelationshipType,
  Signature,
} from '@trustnxt/c2pa-ts/manifest';
import type { Action } from '@trustnxt/c2pa-ts/manifest';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import songmintPackage from '../../../package.json' with { type: 'json' };
import type { SigningIdentity } from './signing-identity.ts';
import { commentFrame, geobPreamble, id3TagHead, textFrame } from './id3-tag.ts';
import type { SourceCredentials } from './source-credentials.ts';
import type { FingerprintRecord } from '../../../core/src/fingerprint/encoding.ts';
import type { OutsideAudioRecord } from '../../../core/src/outside-audio.ts';

export const GENERATOR = { name: 'Songmint', version: songmintPackage.version } as const;
export const AI_COMMENT = 'AI-generated with Songmint';
export const GENERATION_ASSERTION_LABEL = 'com.songmint.generation';
/** The GEOB MIME type C2PA 2.x gives an MP3's manifest store. */
export const C2PA_GEOB_MIME = 'application/c2pa';

/** Room left in the COSE signature box for the signature itself (RSA-4096 needs 512 bytes). */
const SIGNATURE_RESERVE = 1024;
const TITLE_WORDS = 8;
const TITLE_MAX_CHARS = 60;
/** ISO/IEC 19566-5 type of a CBOR content box ("cbor" + the ISO suffix). */
const CBOR_ASSERTION_UUID = Uint8Array.from(Buffer.from('63626f72001100108000' + '00aa00389b71', 'hex'));

/** What made the song, as the manifest states it. */
export interface SongProvenance {
  jobId: string;
  kind: 'song' | 'preview';
  prompt: string;
  seed: bigint;
  model: { name: string; version: string; licence: { spdx: string; commercial_use: boolean; url?: string | undefined } };
  /** An edit's source: its public job id, audio hash and manifest label, and the edit's parameters. */
  editOf?: EditProvenance;
  /** The sound's Chromaprint fingerprint, compact (docs/fingerprints.md); absent for a manifest made without one. */
  fingerprint?: FingerprintRecord;
  /** The seconds of uploaded audio the song keeps verbatim (docs/fingerprints.md "Outside audio"); absent for a manifest made without. */
  outsideAudio?: OutsideAudioRecord;
}

/** An edit's source: a song of the platform's (its job, audio hash and credentials) or uploaded audio. */
export type EditProvenance = SongEditProvenance | UploadEditProvenance;

interface EditDone {
  task: string;
  parameters: Readonly<Record<string, number>>;
}

export interface SongEditProvenance extends EditDone {
  jobId: string;
  audioHash: string;
  manifest: string | null;
  /** The source's checked content credentials: its manifest store goes into the edit's, named as the parent ingredient. */
  credentials: SourceCredentials;
}

export interface UploadEditProvenance extends EditDone {
  /** The uploaded file: its public id, `0x` + SHA-256 of its bytes, and MIME type. */
  upload: { uploadId: string; sha256: string; format: string };
}

export interface FinishedMp3 {
  bytes: Uint8Array;
  /** Size of the signed manifest store, and of the whole ID3 tag that carries it and the text frames. */
  manifestBytes: number;
  tagBytes: number;
  /** The active manifest's label (`urn:c2pa:…`). */
  manifestLabel: string;
}

/** `com.songmint.generation`: a CBOR assertion with the generation's parameters. */
class GenerationAssertion extends Assertion {
  override label = GENERATION_ASSERTION_LABEL;
  override uuid = CBOR_ASSERTION_UUID;
  constructor(private content: Record<string, unknown>) {
    super();
  }
  readContentFromJUMBF(box: IBox): void {
    this.content = (box as CBORBox).content as Record<string, unknown>;
  }
  generateJUMBFBoxForContent(): IBox {
    const box = new CBORBox();
    box.content = this.content;
    return box;
  }
}

/** The title a player shows: the prompt's first words. */
export function titleFromPrompt(prompt: string): string {
  const words = prompt
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, TITLE_WORDS)
    .join(' ');
  const title = words.length > TITLE_MAX_CHARS ? `${words.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : words;
  return title.length === 0 ? 'Untitled' : title.charAt(0).toUpperCase() + title.slice(1);
}

export function promptSha256(prompt: string): string {
  return `0x${createHash('sha256').update(prompt, 'utf8').digest('hex')}`;
}

/** `editOf` in `com.songmint.generation`: the source named by job, audio hash and manifest label, or by upload, hash and format. */
function editOfRecord(edit: EditProvenance): Record<string, unknown> {
  const done = { task: edit.task, parameters: { ...edit.parameters } };
  if ('upload' in edit) return { uploadId: edit.upload.uploadId, sha256: edit.upload.sha256, format: edit.upload.format, ...done };
  return { jobId: edit.jobId, audioHash: edit.audioHash, manifest: edit.manifest, ...done };
}

function editDescription(edit: EditProvenance): string {
  const seconds = (key: string): string => `${edit.parameters[key] ?? 0} s`;
  const source = 'upload' in edit ? `uploaded audio ${edit.upload.uploadId}` : edit.jobId;
  if (edit.task === 'repaint') return `repainted ${seconds('start')} to ${seconds('end')} of ${source}`;
  if (edit.task === 'extend') return `extended ${source}`;
  return `${edit.task} of ${source}`;
}

/**
 * `c2pa.ingredient.v3` naming uploaded audio (`parentOf`): a file without content credentials of
 * its own, so no manifest or validation results; its id as title and instance id, its format,
 * and its SHA-256 as metadata, which a reader compares with the file it has.
 */
function uploadIngredient(upload: UploadEditProvenance['upload']): IngredientAssertion {
  const ingredient = IngredientAssertion.createV3(RelationshipType.ParentOf);
  ingredient.title = upload.uploadId;
  ingredient.format = upload.format;
  ingredient.instanceID = `xmp:iid:${upload.uploadId.replace(/^upl_/, '')}`;
  ingredient.metadata = { 'com.songmint.uploadId': upload.uploadId, 'com.songmint.sha256': upload.sha256 };
  return ingredient;
}

/**
 * `c2pa.ingredient.v3` naming the source (C2PA 2.x, 8.3 Ingredient): `parentOf`, its title and
 * format, its claim's instance id, hashed URIs of its active manifest and claim signature (both
 * in this file's store), what validating it found, and its audio hash and job as metadata.
 */
function parentIngredient(source: SourceCredentials): IngredientAssertion {
  const ingredient = IngredientAssertion.createV3(RelationshipType.ParentOf);
  ingredient.title = source.title;
  ingredient.format = source.format;
  ingredient.instanceID = source.instanceId;
  ingredient.activeManifest = { uri: `self#jumbf=/c2pa/${source.manifestLabel}`, hash: source.manifestHash, algorithm: 'SHA-256' };
  ingredient.claimSignature = {
    uri: `self#jumbf=/c2pa/${source.manifestLabel}/c2pa.signature`,
    hash: source.signatureHash,
    algorithm: 'SHA-256',
  };
  ingredient.validationResults = { activeManifest: source.validation };
  ingredient.metadata = { 'com.songmint.audioHash': source.audioHash };
  return ingredient;
}

function coseSigner(identity: SigningIdentity): Signer {
  const [signer, ...intermediates] = identity.chain;
  if (signer === undefined) throw new Error('signing identity without a certificate');
  return {
    algorithm: identity.algorithm,
    // c2pa-ts reads the certificates with its own @peculiar/x509 copy: hand it DER-built ones.
    certificate: new x509.X509Certificate(signer.rawData),
    chainCertificates: intermediates.map((c) => new x509.X509Certificate(c.rawData)),
    sign: (payload) => identity.sign(payload),
  };
}

/**
 * Where a format keeps the manifest store: the file is `before` + store + `after`, and the
 * `c2pa.hash.data` exclusion is the store's bytes plus the last `exclusionExtra` bytes of
 * `before` (a RIFF chunk header; 0 where the store sits inside an ID3 GEOB frame). `before`'s
 * length may not depend on the store's length, only its contents (the sizes it states) may.
 */
interface StoreLayout {
  around(storeLength: number): { before: Uint8Array; after: readonly Uint8Array[] };
  exclusionExtra: number;
}

/** What `embedManifest` made: the signed file and its manifest's size and label. */
export interface EmbeddedManifest {
  bytes: Uint8Array;
  manifestBytes: number;
  manifestLabel: string;
}

/**
 * Builds, places and signs the manifest for a file of `assetFormat` laid out by `layout`: one
 * set of assertions for every format a song is published in (MP3, WAV, FLAC).
 */
export async function embedManifest(
  assetFormat: string,
  provenance: SongProvenance,
  identity: SigningIdentity,
  layout: StoreLayout,
): Promise<EmbeddedManifest> {
  const signer = coseSigner(identity);
  const editOf = provenance.editOf;
  const source = editOf === undefined || 'upload' in editOf ? undefined : editOf.credentials;
  // An edit's store starts with its source's whole store (and so the source's own sources).
  const store = source === undefined ? new ManifestStore() : ManifestStore.read(SuperBox.fromBuffer(source.store));
  const manifest = store.createManifest({
    claimVersion: ClaimVersion.V2,
    assetFormat,
    instanceID: `xmp:iid:${randomUUID()}`,
    defaultHashAlgorithm: 'SHA-256',
    signer,
  });
  manifest.signature = Signature.create(signer, SIGNATURE_RESERVE);
  const claim = manifest.claim;
  if (claim === undefined) throw new Error('c2pa-ts made a manifest without a claim');
  claim.claimGeneratorName = GENERATOR.name;
  claim.claimGeneratorVersion = GENERATOR.version;

  const softwareAgent = { name: provenance.model.name, version: provenance.model.version };
  const actions = new ActionAssertion();
  actions.label = 'c2pa.actions.v2';
  let ingredient: IngredientAssertion | undefined;
  if (editOf === undefined) {
    actions.actions = [{ action: ActionType.C2paCreated, digitalSourceType: DigitalSourceType.TrainedAlgorithmicMedia, softwareAgent }];
  } else {
    ingredient = 'upload' in editOf ? uploadIngredient(editOf.upload) : parentIngredient(editOf.credentials);
    // The reference is made before the actions' own so that sign() hashes the ingredient first.
    const ingredients = [manifest.createAssertionReference(ingredient)];
    const edit = editOf;
    actions.actions = [
      { action: ActionType.C2paOpened, parameters: { ingredients } },
      {
        action: ActionType.C2paEdited,
        digitalSourceType: DigitalSourceType.TrainedAlgorithmicMedia,
        softwareAgent,
        parameters: { ingredients, description: editDescription(edit), 'com.songmint.edit': { task: edit.task, ...edit.parameters } },
      } satisfies Action,
    ];
  }
  manifest.addAssertion(actions);
  if (ingredient !== undefined) manifest.addAssertion(ingredient);
  const licence = provenance.model.licence;
  manifest.addAssertion(
    new GenerationAssertion({
      generator: { ...GENERATOR },
      kind: provenance.kind,
      jobId: provenance.jobId,
      model: {
        name: provenance.model.name,
        version: provenance.model.version,
        licence: { spdx: licence.spdx, commercialUse: licence.commercial_use, ...(licence.url === undefined ? {} : { url: licence.url }) },
      },
      // A decimal string: the seed is a uint64, beyond what JSON readers keep exactly.
      seed: provenance.seed.toString(),
      promptSha256: promptSha256(provenance.prompt),
      ...(provenance.fingerprint === undefined ? {} : { fingerprint: { ...provenance.fingerprint } }),
      ...(provenance.outsideAudio === undefined
        ? {}
        : { outsideAudio: { seconds: provenance.outsideAudio.seconds, spans: provenance.outsideAudio.spans.map(([a, b]) => [a, b]) } }),
      ...(provenance.editOf === undefined ? {} : { editOf: editOfRecord(provenance.editOf) }),
    }),
  );
  const dataHash = DataHashAssertion.create('SHA-256');
  manifest.addAssertion(dataHash);

  // The manifest's offset does not depend on its length (ID3 and RIFF sizes are fixed-width), so
  // the exclusion is set first and the data hash's padding absorbs the bytes its numbers take.
  const exclusionStart = layout.around(0).before.length - layout.exclusionExtra;
  const sizeBefore = dataHash.generateJUMBFBox().measureSize();
  const storeLength = store.measureSize();
  dataHash.exclusions = [{ start: exclusionStart, length: layout.exclusionExtra + storeLength }];
  dataHash.paddingLength -= dataHash.generateJUMBFBox().measureSize() - sizeBefore;
  if (dataHash.paddingLength < 0 || store.measureSize() !== storeLength) throw new Error('the data hash outgrew its padding');

  const { before, after } = layout.around(storeLength);
  const hash = createHash('sha256').update(before.subarray(0, exclusionStart));
  for (const part of after) hash.update(part);
  dataHash.hash = new Uint8Array(hash.digest());
  await manifest.sign(signer);
  const jumbf = store.getBytes();
  if (jumbf.length !== storeLength) throw new Error(`the signed manifest store is ${jumbf.length} bytes, ${storeLength} were reserved`);

  const bytes = new Uint8Array(before.length + jumbf.length + after.reduce((sum, part) => sum + part.length, 0));
  bytes.set(before, 0);
  bytes.set(jumbf, before.length);
  let offset = before.length + jumbf.length;
  for (const part of after) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { bytes, manifestBytes: jumbf.length, manifestLabel: manifest.label ?? '' };
}

/**
 * The ID3v2 tag a song's MP3 (and its FLAC, as c2pa-rs reads FLAC) starts with: the title, the
 * generator, the AI comment and the manifest store in a GEOB frame, then `body` untouched.
 */
export async function embedInId3Tag(
  body: Uint8Array,
  assetFormat: string,
  provenance: SongProvenance,
  identity: SigningIdentity,
): Promise<FinishedMp3> {
  const title = titleFromPrompt(provenance.prompt);
  const frames = [textFrame('TIT2', title), textFrame('TSSE', `${GENERATOR.name} ${GENERATOR.version}`), commentFrame(AI_COMMENT)];
  const preamble = geobPreamble(C2PA_GEOB_MIME, 'c2pa', 'c2pa manifest store');
  const embedded = await embedManifest(assetFormat, provenance, identity, {
    around: (storeLength) => ({ before: id3TagHead(frames, { id: 'GEOB', head: preamble, length: storeLength }), after: [body] }),
    exclusionExtra: 0,
  });
  return { ...embedded, tagBytes: embedded.bytes.length - body.length };
}

/**
 * Tags and signs `mp3` (the encoder's frames, no tag yet): returns the bytes to hash and
 * publish. Throws only on a fault (the identity was checked at start).
 */
export function finishMp3(mp3: Uint8Array, provenance: SongProvenance, identity: SigningIdentity): Promise<FinishedMp3> {
  return embedInId3Tag(mp3, 'audio/mpeg', provenance, identity);
}
