import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { densestWindows, RANK_WINDOW_FRAMES, soundsSharing } from '../../core/src/fingerprint/landmark-registry.ts';
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

const sorted = (votes: Map<number, number>): [number, number][] => [...votes].sort((a, b) => a[0] - b[0]);

describe('core: counting the postings a lookup shares with each sound', () => {
  it('agrees with a plain count on crowded, sparse and colliding draws, keeping only sounds at the threshold or past it', () => {
    const random = seededRandom(71);
    for (let draw = 0; draw < 40; draw += 1) {
      // Ids from a few dense blocks (sounds registered together) and far apart (int4's range),
      // so that slots collide and probes wrap past the table's end.
      const blocks = [1, 1 + Math.floor(random() * 2 ** 20), 2 ** 31 - 5000];
      const idOf = (): number => (blocks[Math.floor(random() * 3)] as number) + Math.floor(random() * (draw % 2 === 0 ? 40 : 4000));
      const lists = Array.from({ length: 1 + Math.floor(random() * 300) }, () => Array.from({ length: Math.floor(random() * 65) }, idOf));
      const minVotes = 1 + Math.floor(random() * 12);
      const votes = soundsSharing(packed(lists), minVotes);
      assert.deepEqual(sorted(votes), sorted(counted(lists, minVotes)), `draw ${draw}, threshold ${minVotes}`);
      assert.ok(draw % 2 === 1 || votes.size > 0, 'the dense draws put some sounds past the threshold');
    }
  });

  it('reads rows handed back as slices of one buffer, and a row with no postings', () => {
    const whole = packed([[5, 5, 9, 5, 9, 5]])[0]?.postings as Buffer;
    // pg hands a row's bytea back as its own Buffer, but a slice at an offset must read the same.
    const lists = [{ postings: whole.subarray(0, 30) }, { postings: Buffer.alloc(0) }, { postings: whole.subarray(30) }];
    assert.deepEqual(sorted(soundsSharing(lists, 2)), [
      [5, 4],
      [9, 2],
    ]);
    assert.equal(soundsSharing(lists, 5).size, 0);
  });

  it("ranks by the most distinct registered times within one window: a plain count over every window's start", () => {
    const random = seededRandom(73);
    const plain = (times: readonly number[]): number =>
      Math.max(0, ...times.map((start) => new Set(times.filter((t) => t >= start && t - start <= RANK_WINDOW_FRAMES)).size));
    for (let draw = 0; draw < 30; draw += 1) {
      // Sound 1 spread over minutes, sound 2 dense in one stretch, sound 3 repeating few times.
      const spread = Array.from({ length: 200 }, () => Math.floor(random() * 20_000));
      const dense = Array.from({ length: 60 }, () => 5_000 + Math.floor(random() * RANK_WINDOW_FRAMES * 1.5));
      const repeated = Array.from({ length: 80 }, () => [100, 101, 102][Math.floor(random() * 3)] as number);
      const entries = [...spread.map((t) => [1, t]), ...dense.map((t) => [2, t]), ...repeated.map((t) => [3, t])].sort(
        () => random() - 0.5,
      );
      // Split over rows as a read returns them, in no order of time.
      const rows: { postings: Buffer }[] = [];
      for (let at = 0; at < entries.length; at += 37) {
        const part = entries.slice(at, at + 37);
        const postings = Buffer.alloc(part.length * 10);
        part.forEach(([id, t], i) => {
          postings.writeInt32BE(id as number, i * 10);
          postings.writeInt32BE(t as number, i * 10 + 4);
        });
        rows.push({ postings });
      }
      const windows = densestWindows(rows, new Set([1, 2, 3, 4]));
      assert.deepEqual(
        [1, 2, 3, 4].map((id) => windows.get(id)),
        [plain(spread), plain(dense), 3, 0],
        `draw ${draw}`,
      );
      assert.ok((windows.get(2) as number) > (windows.get(1) as number), 'the dense sound ranks first');
    }
  });
});
