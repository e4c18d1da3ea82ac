import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { longestFirst, measuredDurations } from '../../scripts/test-order.ts';

describe('test-services order: the longest files first', () => {
  it('reads the newest recorded run and puts a file it did not measure at the median', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'songmint-test-order-'));
    try {
      const path = join(dir, 'test-suite-time.json');
      await writeFile(
        path,
        JSON.stringify([
          { startedAt: '2026-11-28T10:00:00.000Z', files: [{ file: 'old.test.ts', durationMs: 999_000 }] },
          {
            startedAt: '2026-11-29T10:00:00.000Z',
            files: [
              { file: 'short.test.ts', durationMs: 2_000 },
              { file: 'long.test.ts', durationMs: 250_000 },
              { file: 'middle.test.ts', durationMs: 30_000 },
              { file: 'cut-off.test.ts', durationMs: null },
            ],
          },
        ]),
      );
      const durations = measuredDurations(path);
      assert.deepEqual([...durations.keys()].sort(), ['long.test.ts', 'middle.test.ts', 'short.test.ts']);
      const files = ['a-new.test.ts', 'short.test.ts', 'old.test.ts', 'long.test.ts', 'middle.test.ts'];
      assert.deepEqual(longestFirst(files, durations), [
        'long.test.ts',
        // Unmeasured (new, or only in an older run): the median, 30 s, ties by path.
        'a-new.test.ts',
        'middle.test.ts',
        'old.test.ts',
        'short.test.ts',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the path order where nothing was measured', () => {
    assert.deepEqual(measuredDurations('/nonexistent/test-suite-time.json').size, 0);
    assert.deepEqual(longestFirst(['b.test.ts', 'a.test.ts'], new Map()), ['a.test.ts', 'b.test.ts']);
  });
});
