/**
 * A model's licence as the worker records it on every job it completes: the SPDX id and whether
 * the licence allows commercial use. The oracle's mint guard reads the latter; minting a song is
 * a commercial use (the token trades), so audio from a non-commercial model is not minted unless
 * the operator overrides it.
 */
import { z } from 'zod';

export const ModelLicence = z.object({
  /** SPDX identifier (`MIT`, `Apache-2.0`, `CC-BY-NC-4.0`), or `LicenseRef-…` for others. */
  spdx: z.string().min(1).max(100),
  /** Whether the weights' licence allows commercial use of what they generate. */
  commercial_use: z.boolean(),
  url: z.url().optional(),
});
export type ModelLicence = z.infer<typeof ModelLicence>;

/** Licences that say so themselves: the NonCommercial Creative Commons family. */
const NON_COMMERCIAL = /^CC-BY-NC(-SA|-ND)?-\d\.\d$/i;

/** Licences that allow commercial use without conditions on the use itself. */
const COMMERCIAL = new Set([
  'mit',
  'apache-2.0',
  'bsd-2-clause',
  'bsd-3-clause',
  'cc0-1.0',
  'cc-by-4.0',
  'cc-by-sa-4.0',
  'openrail',
  'openrail++',
]);

/**
 * The licence a bare SPDX id stands for, when that id alone settles commercial use; undefined
 * for any other licence (a community or custom licence must be declared with `commercial_use`).
 */
export function licenceFromSpdx(spdx: string): ModelLicence | undefined {
  const id = spdx.trim();
  if (NON_COMMERCIAL.test(id)) return { spdx: id.toUpperCase(), commercial_use: false };
  if (COMMERCIAL.has(id.toLowerCase())) return { spdx: id, commercial_use: true };
  return undefined;
}

/** The `license:` field of a Hugging Face model card's YAML front matter (README.md), if any. */
export function modelCardLicence(readme: string): string | undefined {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readme);
  if (front?.[1] === undefined) return undefined;
  return /^license:\s*["']?([A-Za-z0-9.+-]+)["']?\s*$/m.exec(front[1])?.[1];
}
