/**
 * float32 <-> float16 at an fp16 graph's boundary, against IEEE 754 binary16 bit patterns (each
 * checked against numpy's `np.float16(np.float32(x)).view(np.uint16)`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromFloat16, toFloat16 } from '../../inference/src/model/acestep/float16.ts';

describe('float16 conversion', () => {
  it('writes the IEEE binary16 bits, rounding to nearest even', () => {
    const cases: [number, number][] = [
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [65504, 0x7bff],
      [65520, 0x7c00], // rounds up past the largest half: infinity
      [1 / 3, 0x3555],
      [0.1, 0x2e66],
      [2 ** -24, 0x0001], // smallest subnormal
      [2 ** -25, 0x0000], // halfway to it: ties to even (zero)
      [3 * 2 ** -25, 0x0002], // halfway between 1 and 2 subnormal steps: even (2)
      [1 + 2 ** -11, 0x3c00], // halfway between 1 and the next half: even (1)
      [1 + 3 * 2 ** -11, 0x3c02],
      [-0, 0x8000],
      [Infinity, 0x7c00],
    ];
    for (const [x, bits] of cases) assert.equal(toFloat16([x])[0], bits, `${x}`);
    assert.equal((toFloat16([Number.NaN])[0] ?? 0) & 0x7fff, 0x7e00);
  });

  it('reads them back exactly', () => {
    assert.deepEqual(Array.from(fromFloat16([0x3c00, 0xc000, 0x3555, 0x0001, 0x7bff, 0xfc00])), [
      1,
      -2,
      Math.fround(0.333251953125),
      Math.fround(2 ** -24),
      65504,
      -Infinity,
    ]);
    const values = Float32Array.from([0.1, -7.25, 1000.5, 1e-3]);
    const round = fromFloat16(toFloat16(values));
    values.forEach((x, i) => assert.ok(Math.abs((round[i] ?? 0) - x) <= Math.abs(x) * 2 ** -11, `${x} -> ${round[i]}`));
  });
});
