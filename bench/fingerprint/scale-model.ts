/**
 * Recall at scale, modelled in memory (issue 50, docs/fingerprints.md): the bench's copies
 * against its registered sounds beside synthetic postings drawn as `loadSynthetic` draws them
 * (each hash component from 400 draws of the real postings' own, or from all of them at their own
 * frequencies; a million model keys, each synthetic posting one of them), the stop-word rule applied, and each copy's votes for its own
 * sound counted by the product's matcher. The registry in PostgreSQL takes minutes to load and
 * gives one total; this gives the share caught per transformation in seconds, for the product's
 * key and for keys it does not have, so that a claim such as "a finer key would bring the copies
 * back" is measured rather than estimated. The product's key is modelled beside the registry's
 * measured figure in the same run: that is the model's check.
 */
import { alignShared, MAX_SHIFT_BINS } from '../../core/src/fingerprint/landmark-match.ts';
import type { SharedTriplet } from '../../core/src/fingerprint/landmark-match.ts';
import {
  CANDIDATE_POSTINGS,
  MAX_POSTINGS_READ,
  MIN_LOOKUP_FANOUT,
  sharedTriplet,
  verificationFanout,
} from '../../core/src/fingerprint/landmark-registry.ts';
import { LOG_BINS } from '../../core/src/fingerprint/log-spectrogram.ts';
import { RATIO_LEVELS, REGISTER_BINS, SPAN_CLASSES } from '../../core/src/fingerprint/triplets.ts';
import type { Triplets } from '../../core/src/fingerprint/triplets.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';

/**
 * A key layout: the triplet hash's frequency pair, time ratio and span class, with k1 in classes
 * of `k1Bins` bins. `REGISTER_BINS` is the product's hash (k1's register; a query probes its own
 * key only). A finer class lets a query probe every class its pitch tolerance reaches
 * (`MAX_SHIFT_BINS` and the matcher's neighbour), so that no vote the matcher counts is lost.
 */
export interface KeyLayout {
  name: string;
  k1Bins: number;
  /** Postings a key may hold before it is a stop word. */
  fanout: number;
  /**
   * How the synthetic postings' components are drawn: from 400 draws of the real ones, as the
   * bench's load into PostgreSQL draws them, or from all of them (each component as often as the
   * real postings hold it: no rare value is drawn as if it were common, and none is left out).
   */
  synthetic: 'as loaded' | 'real frequencies';
  /**
   * Whether a copy that shares `CANDIDATE_POSTINGS` postings read with its sound but agrees on too
   * few of them is verified again on its sound's triplets, counting every key as rare as
   * ./landmark-registry.ts `verificationFanout` allows (the product since migration 0028). The
   * model does not rank the candidates: a copy counts as verified where the product would verify
   * it among its best `FULL_VERIFICATIONS`. Its read is the product's: the rarest keys within
   * `MAX_POSTINGS_READ`.
   */
  verifyOnPeaks?: boolean;
}

export interface ScaleModelInput {
  /** Each registered sound's triplets (./landmark-registry.ts `registeredTriplets`). */
  registered: readonly Triplets[];
  /** Each copy: its transformation, its query triplets, and the index of its own sound in `registered`. */
  copies: readonly { row: string; query: Triplets; own: number }[];
  syntheticPostings: number;
  minVotes: number;
}

export interface ScaleModelResult {
  layout: KeyLayout;
  caught: number;
  byRow: Map<string, { caught: number; copies: number }>;
  keys: number;
  stopWords: number;
  /** Distinct keys a query reads, mean over the copies. */
  queryKeys: number;
}

const REGISTERS = Math.ceil(LOG_BINS / REGISTER_BINS);
/** The probe reach: the matcher's shift range and the neighbour it counts (./landmark-match.ts). */
const K1_REACH = MAX_SHIFT_BINS + 1;
const MODEL_KEYS = 1_000_000;
const COMPONENT_DRAWS = 400;

type Components = [pair: number, ratio: number, span: number, k1Class: number];

/** The key's components, as ./triplets.ts `tripletHash` composes the hash, with k1's class. */
const componentsOf = (hash: number, k1: number, layout: KeyLayout): Components => {
  const shape = Math.floor(hash / (REGISTERS * SPAN_CLASSES));
  return [Math.floor(shape / RATIO_LEVELS), shape % RATIO_LEVELS, hash % SPAN_CLASSES, Math.floor(k1 / layout.k1Bins)];
};

function keyOf(pair: number, ratio: number, span: number, k1Class: number, layout: KeyLayout): number {
  const classes = Math.ceil(LOG_BINS / layout.k1Bins);
  return ((pair * RATIO_LEVELS + ratio) * SPAN_CLASSES + span) * classes + k1Class;
}

/** The keys a query triplet reads: its own, or every k1 class within reach for a finer layout. */
function probes(hash: number, k1: number, layout: KeyLayout): number[] {
  const [pair, ratio, span, own] = componentsOf(hash, k1, layout);
  if (layout.k1Bins === REGISTER_BINS) return [keyOf(pair, ratio, span, own, layout)];
  const keys: number[] = [];
  const last = Math.floor(Math.min(LOG_BINS - 1, k1 + K1_REACH) / layout.k1Bins);
  for (let c = Math.floor(Math.max(0, k1 - K1_REACH) / layout.k1Bins); c <= last; c += 1) keys.push(keyOf(pair, ratio, span, c, layout));
  return keys;
}

/** The rarest of `keys` whose postings add up to at most `MAX_POSTINGS_READ` (ties: the lower key), as the product reads them. */
function withinBudget(keys: readonly number[], counts: ReadonlyMap<number, number>): number[] {
  const rarest = [...keys].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || a - b);
  const chosen: number[] = [];
  let postings = 0;
  for (const key of rarest) {
    postings += counts.get(key) ?? 0;
    if (postings > MAX_POSTINGS_READ) break;
    chosen.push(key);
  }
  return chosen;
}

export function modelRecall(input: ScaleModelInput, layout: KeyLayout): ScaleModelResult {
  const random = seededRandom(50);
  const counts = new Map<number, number>();
  const realComponents: Components[] = [];
  const registeredKeys = input.registered.map((triplets) =>
    Array.from(triplets.hash, (hash, j) => {
      const components = componentsOf(hash, triplets.k[j] as number, layout);
      realComponents.push(components);
      const key = keyOf(...components, layout);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return key;
    }),
  );
  // As loadSynthetic: each component drawn apart from the real postings' values, then the postings.
  const draws = [0, 1, 2, 3].map((i) =>
    layout.synthetic === 'real frequencies'
      ? Int32Array.from(realComponents, (components) => components[i] as number)
      : Int32Array.from(
          { length: COMPONENT_DRAWS },
          () => (realComponents[Math.floor(random() * realComponents.length)] as Components)[i] as number,
        ),
  );
  const pick = (i: number): number => {
    const values = draws[i] as Int32Array;
    return values[Math.floor(random() * values.length)] as number;
  };
  const model = Int32Array.from({ length: MODEL_KEYS }, () => keyOf(pick(0), pick(1), pick(2), pick(3), layout));
  for (let i = 0; i < input.syntheticPostings; i += 1) {
    const key = model[Math.floor(random() * MODEL_KEYS)] as number;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const registeredPostings = realComponents.length;
  let stopWords = 0;
  for (const n of counts.values()) if (n > layout.fanout) stopWords += 1;

  const byRow = new Map<string, { caught: number; copies: number }>();
  let caught = 0;
  let queryKeys = 0;
  for (const copy of input.copies) {
    const byKey = new Map<number, number[]>();
    copy.query.hash.forEach((hash, i) => {
      for (const key of probes(hash, copy.query.k[i] as number, layout))
        (byKey.get(key) ?? (byKey.set(key, []).get(key) as number[])).push(i);
    });
    queryKeys += byKey.size;
    const own = input.registered[copy.own] as Triplets;
    // The keys whose postings are read: every key within the fan-out, or, as the product reads,
    // the rarest of them within `MAX_POSTINGS_READ`.
    const readable = [...byKey.keys()].filter((key) => (counts.get(key) ?? 0) <= layout.fanout);
    const read = new Set(layout.verifyOnPeaks === true ? withinBudget(readable, counts) : readable);
    const shared: SharedTriplet[] = [];
    (registeredKeys[copy.own] as number[]).forEach((key, j) => {
      if (!read.has(key)) return;
      for (const i of byKey.get(key) ?? [])
        shared.push(sharedTriplet(copy.query, i, own.t[j] as number, own.span[j] as number, own.k[j] as number));
    });
    let found = (alignShared(shared)?.votes ?? 0) >= input.minVotes;
    if (!found && layout.verifyOnPeaks === true) {
      const rare = verificationFanout(registeredPostings + input.syntheticPostings);
      let sharedRead = 0;
      const onPeaks: SharedTriplet[] = [];
      (registeredKeys[copy.own] as number[]).forEach((key, j) => {
        const queryTriplets = byKey.get(key) ?? [];
        if (read.has(key)) sharedRead += 1;
        if ((counts.get(key) ?? 0) > rare) return;
        for (const i of queryTriplets)
          onPeaks.push(sharedTriplet(copy.query, i, own.t[j] as number, own.span[j] as number, own.k[j] as number));
      });
      found = sharedRead >= CANDIDATE_POSTINGS && (alignShared(onPeaks)?.votes ?? 0) >= input.minVotes;
    }
    if (found) caught += 1;
    const row = byRow.get(copy.row) ?? (byRow.set(copy.row, { caught: 0, copies: 0 }).get(copy.row) as { caught: number; copies: number });
    row.copies += 1;
    if (found) row.caught += 1;
  }
  return { layout, caught, byRow, keys: counts.size, stopWords, queryKeys: queryKeys / Math.max(1, input.copies.length) };
}

/**
 * The layouts the bench models: the product's key at the fan-out its lookup reads among the
 * bench's registry (`productFanout`, ./landmark-registry.ts `lookupFanout`) and at a small
 * registry's, and k1 finer, with the synthetic registry as loaded; then the product's two and the
 * finest with its components drawn at the real postings' frequencies.
 */
export function modelledLayouts(productFanout: number): KeyLayout[] {
  const small = MIN_LOOKUP_FANOUT;
  return [
    {
      name: `the product's key (k1's register), stop words past ${productFanout}`,
      k1Bins: REGISTER_BINS,
      fanout: productFanout,
      synthetic: 'as loaded',
    },
    {
      name: `the product's key, stop words past ${small} (a small registry's)`,
      k1Bins: REGISTER_BINS,
      fanout: small,
      synthetic: 'as loaded',
    },
    { name: `k1 in classes of 8 bins, stop words past ${small}`, k1Bins: 8, fanout: small, synthetic: 'as loaded' },
    { name: `k1 exact, stop words past ${small}`, k1Bins: 1, fanout: small, synthetic: 'as loaded' },
    {
      name: `the product's key, stop words past ${productFanout}, synthetic components at the real frequencies`,
      k1Bins: REGISTER_BINS,
      fanout: productFanout,
      synthetic: 'real frequencies',
    },
    {
      name: `the product's key, stop words past ${small}, synthetic components at the real frequencies`,
      k1Bins: REGISTER_BINS,
      fanout: small,
      synthetic: 'real frequencies',
    },
    {
      name: `the product: its key, stop words past ${productFanout}, the rarest keys within ${MAX_POSTINGS_READ.toLocaleString('en')} postings read, then verified on peaks at 1 in 4,000 postings, synthetic components at the real frequencies`,
      k1Bins: REGISTER_BINS,
      fanout: productFanout,
      synthetic: 'real frequencies',
      verifyOnPeaks: true,
    },
    {
      name: `k1 exact, stop words past ${small}, synthetic components at the real frequencies`,
      k1Bins: 1,
      fanout: small,
      synthetic: 'real frequencies',
    },
  ];
}
