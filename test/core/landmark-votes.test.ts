import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventLoopSlices } from '../../core/src/event-loop-slices.ts';
import { mostOnOneDiagonal, soundsSharing } from '../../core/src/fingerprint/landmark-registry.ts';
import { ALIGNMENT_SPREAD_FRAMES, alignShared, MAX_STRETCH } from '../../core/src/fingerprint/landmark-match.ts';
import type { SharedTriplet } from '../../core/src/fingerprint/landmark-match.ts';
import { seededRandom } from '../../core/src/testing/seeded-random.ts';

/** Posting lists as the registry's rows pack them: sound id int4, t int4, shape int2, big-endian. */
function packed(lists: readonly (readonly number[])[]): { postings: Buffer }[] {
  return lists.map((ids) => {
    const postings = Buffer.alloc(ids.length * 10);
    ids.forEach((id, i) => {
      postings.writeInt32BE(id, i * 10);
      postings.writeInt32BE(i * 7, i * 10 + 4);
      postings.writeInt16BE(300 + i, i * 10 + 8);
    });
    return { postings };
  });
}

/** The count the table replaces, written the plain way. */
function counted(lists: readonly (readonly number[])[], minVotes: number): Map<number, number> {
  const votes = new Map<number, number>();
  for (const ids of lists) for (const id of ids) votes.set(id, (votes.get(id) ?? 0) + 1);
  return new Map([...votes].filter(([, n]) => n >= minVotes));
}

/** The most of `differences` within `ALIGNMENT_SPREAD_FRAMES` of one another, counted plainly from each one's start. */
const mostWithinSpread = (differences: readonly number[]): number =>
  Math.max(0, ...differences.map((from) => differences.filter((d) => d >= from && d - from <= ALIGNMENT_SPREAD_FRAMES).length));

const sorted = (votes: Map<number, number>): [number, number][] => [...votes].sort((a, b) => a[0] - b[0]);

describe('core: counting the postings a lookup shares with each sound', () => {
  it('agrees with a plain count on crowded, sparse and colliding draws, keeping only sounds at the threshold or past it', async () => {
    const random = seededRandom(71);
    for (let draw = 0; draw < 40; draw += 1) {
      // Ids from a few dense blocks (sounds registered together) and far apart (int4's range),
      // so that slots collide and probes wrap past the table's end.
      const blocks = [1, 1 + Math.floor(random() * 2 ** 20), 2 ** 31 - 5000];
      const idOf = (): number => (blocks[Math.floor(random() * 3)] as number) + Math.floor(random() * (draw % 2 === 0 ? 40 : 4000));
      const lists = Array.from({ length: 1 + Math.floor(random() * 300) }, () => Array.from({ length: Math.floor(random() * 65) }, idOf));
      const minVotes = 1 + Math.floor(random() * 12);
      let pauses = 0;
      const everyPause = eventLoopSlices(0);
      const votes = await soundsSharing(packed(lists), minVotes, async () => {
        pauses += 1;
        await everyPause();
      });
      assert.deepEqual(sorted(votes), sorted(counted(lists, minVotes)), `draw ${draw}, threshold ${minVotes}`);
      // The walk over the rows lets the event loop run between slices of them: the same count.
      assert.ok(pauses >= lists.length / 64, `draw ${draw}: ${pauses} pause points over ${lists.length} rows`);
      assert.ok(draw % 2 === 1 || votes.size > 0, 'the dense draws put some sounds past the threshold');
    }
  });

  it('reads rows handed back as slices of one buffer, and a row with no postings', async () => {
    const whole = packed([[5, 5, 9, 5, 9, 5]])[0]?.postings as Buffer;
    // pg hands a row's bytea back as its own Buffer, but a slice at an offset must read the same.
    const lists = [{ postings: whole.subarray(0, 30) }, { postings: Buffer.alloc(0) }, { postings: whole.subarray(30) }];
    assert.deepEqual(sorted(await soundsSharing(lists, 2)), [
      [5, 4],
      [9, 2],
    ]);
    assert.equal((await soundsSharing(lists, 5)).size, 0);
  });

  it("counts the triplets shared on one diagonal as a plain count over every difference's span does", async () => {
    const random = seededRandom(73);
    for (let draw = 0; draw < 30; draw += 1) {
      // A query's triplet times by hash (some hashes held by several triplets), and rows of
      // postings of sounds 1-3: 1 scattered over minutes, 2 on one diagonal, 3 on none of the query's hashes.
      const queryT = Int32Array.from({ length: 400 }, () => Math.floor(random() * 3_000));
      const byHash = new Map<number, number[]>();
      queryT.forEach((_, i) => {
        const hash = Math.floor(random() * 150);
        byHash.set(hash, [...(byHash.get(hash) ?? []), i]);
      });
      const hashes = [...byHash.keys()];
      const entries: [number, number, number][] = [];
      for (let n = 0; n < 300; n += 1)
        entries.push([1, hashes[Math.floor(random() * hashes.length)] as number, Math.floor(random() * 20_000)]);
      for (let n = 0; n < 40; n += 1) {
        const hash = hashes[Math.floor(random() * hashes.length)] as number;
        const i = (byHash.get(hash) as number[])[0] as number;
        entries.push([2, hash, 9_000 + (queryT[i] as number) + Math.floor(random() * ALIGNMENT_SPREAD_FRAMES)]);
      }
      for (let n = 0; n < 20; n += 1) entries.push([3, 1_000 + n, Math.floor(random() * 20_000)]);
      const byRow = new Map<number, [number, number][]>();
      for (const [id, hash, t] of entries) byRow.set(hash, [...(byRow.get(hash) ?? []), [id, t]]);
      const lists = [...byRow].map(([hash, postings]) => {
        const packed = Buffer.alloc(postings.length * 10);
        postings.forEach(([id, t], i) => {
          packed.writeInt32BE(id, i * 10);
          packed.writeInt32BE(t, i * 10 + 4);
        });
        return { hash, postings: packed };
      });
      const plain = (id: number): number => {
        const differences = entries
          .filter(([own]) => own === id)
          .flatMap(([, hash, t]) => (byHash.get(hash) ?? []).map((i) => t - (queryT[i] as number)));
        return mostWithinSpread(differences);
      };
      let pauses = 0;
      const most = await mostOnOneDiagonal({ t: queryT }, byHash, lists, new Set([1, 2, 3, 4]), async () => {
        pauses += 1;
      });
      // A pause point between slices of the rows and before each sound's differences are sorted.
      assert.ok(pauses >= lists.length / 64 + 4, `draw ${draw}: ${pauses} pause points`);
      assert.deepEqual(
        [1, 2, 3, 4].map((id) => most.get(id)),
        [plain(1), plain(2), 0, 0],
        `draw ${draw}`,
      );
      assert.ok((most.get(2) as number) >= 40 && (most.get(1) as number) < 40, `draw ${draw}: the diagonal ranks first`);
    }
  });

  it('bounds the votes of any alignment: no more than the shared triplets on one diagonal', () => {
    const random = seededRandom(74);
    let tight = 0;
    for (let draw = 0; draw < 200; draw += 1) {
      // Copies at the widest stretches the matcher searches, their starts jittered by up to the
      // tolerance, within one window of query time (where the bound is tight) or over several,
      // beside chance triplets.
      const stretch = [1 / MAX_STRETCH, MAX_STRETCH, 1 + (random() - 0.5) * 0.1][draw % 3] as number;
      const span = draw % 2 === 0 ? 680 : 2_000;
      const count = 20 + Math.floor(random() * 40);
      const shared: SharedTriplet[] = Array.from({ length: count }, (_, n) => {
        const queryT = Math.floor((n * span) / count);
        return {
          queryT,
          querySpan: 40,
          queryK: 50,
          refT: Math.round(500 + queryT / stretch + (random() - 0.5) * 20),
          refSpan: Math.round(40 / stretch),
          refK: 50,
        };
      });
      for (let n = 0; n < 40; n += 1)
        shared.push({
          queryT: Math.floor(random() * 2_000),
          querySpan: 40,
          queryK: 50,
          refT: Math.floor(random() * 5_000),
          refSpan: 40,
          refK: 50,
        });
      const votes = alignShared(shared)?.votes ?? 0;
      const bound = mostWithinSpread(shared.map((p) => p.refT - p.queryT));
      assert.ok(votes <= bound, `draw ${draw}: ${votes} votes, ${bound} on one diagonal`);
      if (votes >= bound - 3) tight += 1;
    }
    assert.ok(tight > 10, `${tight} draws within 3 of the bound`);
  });
});
