/**
 * The host half of ACE-Step 1.5's split condition encoder against numbers worked out from the
 * reference algorithm (`pack_sequences`: concatenate, stable descending sort of the mask, mask =
 * leading ones; the context as source then chunk mask). The expected
 * values below were also reproduced with torch (cat, argsort(descending, stable), gather).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MaskedStates } from '../../inference/src/model/acestep/condition-packing.ts';
import { contextLatents, packCondition, packSequences } from '../../inference/src/model/acestep/condition-packing.ts';

/** Width-2 tokens `[x, -x]` so a test sees whole rows move, never halves. */
function states(rows: number[][], mask: number[][]): MaskedStates {
  return {
    states: Float32Array.from(rows.flat().flatMap((x) => [x, -x])),
    mask: Uint8Array.from(mask.flat()),
    batch: rows.length,
    tokens: rows[0]?.length ?? 0,
    width: 2,
  };
}

function tokens(s: MaskedStates): number[][] {
  const out: number[][] = [];
  for (let n = 0; n < s.batch; n += 1) {
    const row: number[] = [];
    for (let t = 0; t < s.tokens; t += 1) {
      const at = (n * s.tokens + t) * s.width;
      const x = s.states[at] ?? Number.NaN;
      assert.ok(s.states[at + 1] === -x, 'a token row stays whole');
      row.push(x);
    }
    out.push(row);
  }
  return out;
}

const masks = (s: MaskedStates): number[][] =>
  Array.from({ length: s.batch }, (_, n) => Array.from(s.mask.subarray(n * s.tokens, (n + 1) * s.tokens)));

describe('ACE-Step condition packing', () => {
  it('packs valid tokens first, in order, and the mask as leading ones', () => {
    const packed = packSequences(
      states(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        [
          [1, 1, 0],
          [1, 0, 1],
        ],
      ),
      states([[7], [8]], [[1], [0]]),
    );
    assert.deepEqual(tokens(packed), [
      [1, 2, 7, 3],
      [4, 6, 5, 8],
    ]);
    assert.deepEqual(masks(packed), [
      [1, 1, 1, 0],
      [1, 1, 0, 0],
    ]);
  });

  it('packs lyrics, then timbre, then the caption, as the reference condition encoder', () => {
    const condition = packCondition({
      lyric: states(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        [
          [1, 1, 0],
          [1, 0, 1],
        ],
      ),
      timbre: states([[7], [8]], [[1], [0]]),
      text: states(
        [
          [9, 10],
          [11, 12],
        ],
        [
          [1, 0],
          [1, 1],
        ],
      ),
    });
    assert.deepEqual(tokens(condition), [
      [1, 2, 7, 9, 3, 10],
      [4, 6, 11, 12, 5, 8],
    ]);
    assert.deepEqual(masks(condition), [
      [1, 1, 1, 1, 0, 0],
      [1, 1, 1, 1, 0, 0],
    ]);
  });

  it('refuses sequences of different widths or batches', () => {
    const a = states([[1]], [[1]]);
    assert.throws(() => packSequences(a, { ...a, width: 1, states: Float32Array.from([1]) }), /cannot pack/);
    assert.throws(() => packSequences(a, { ...a, mask: Uint8Array.from([1, 1]) }), /mask has 2 values/);
  });

  it('builds the context as each frame source then chunk mask', () => {
    const context = contextLatents(Float32Array.from([1, 2, 3, 4]), Float32Array.from([1, 1, 0, 0]), 2, 2);
    assert.deepEqual(Array.from(context), [1, 2, 1, 1, 3, 4, 0, 0]);
  });
});
