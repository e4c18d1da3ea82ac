/**
 * Outside audio through an edit chain (core/src/outside-audio.ts, issue 50 item 5): an extend
 * keeps its source's spans, a repaint cuts its range out, a remix keeps none, and an edit of an
 * edit composes. The audio itself is checked end to end in test/oracle/jobs.test.ts (a WAV
 * repainted 4-6 s keeps 8 s, stated in its C2PA manifest and metadata, and is refused SIGN_008).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  NO_OUTSIDE_AUDIO,
  outsideAfterEdit,
  outsideAudioRecord,
  outsideSeconds,
  outsideShare,
  uploadedSource,
} from '../../core/src/outside-audio.ts';

describe('outside audio through an edit chain', () => {
  it('an edit of an upload starts from all of it; extend keeps it, repaint all but its range, remix none', () => {
    const upload = uploadedSource(12);
    assert.deepEqual(outsideAfterEdit({ task: 'extend' }, upload), { material: true, spans: [[0, 12]] });
    assert.deepEqual(outsideAfterEdit({ task: 'repaint', start: 4, end: 6 }, upload), {
      material: true,
      spans: [
        [0, 4],
        [6, 12],
      ],
    });
    assert.deepEqual(outsideAfterEdit({ task: 'repaint', start: 0, end: 12 }, upload), { material: true, spans: [] });
    assert.deepEqual(
      outsideAfterEdit({ task: 'remix', strength: 0.5 }, upload),
      { material: true, spans: [] },
      'still carries outside material',
    );
  });

  it('an edit of an edit composes: extend, then repaint across the seam, then extend again', () => {
    const extended = outsideAfterEdit({ task: 'extend' }, uploadedSource(10)); // 10 s of upload in a 20 s song
    const repainted = outsideAfterEdit({ task: 'repaint', start: 8, end: 14 }, extended);
    assert.deepEqual(repainted.spans, [[0, 8]]);
    const again = outsideAfterEdit({ task: 'repaint', start: 2, end: 3 }, outsideAfterEdit({ task: 'extend' }, repainted));
    assert.deepEqual(again.spans, [
      [0, 2],
      [3, 8],
    ]);
    assert.equal(outsideSeconds(again.spans), 7);
    assert.equal(outsideShare(again.spans, 28), 0.25);
    assert.deepEqual(outsideAudioRecord(again.spans), {
      seconds: 7,
      spans: [
        [0, 2],
        [3, 8],
      ],
    });
  });

  it('a song from the prompt alone, and its edits, carry none', () => {
    assert.deepEqual(outsideAfterEdit({ task: 'extend' }, NO_OUTSIDE_AUDIO), NO_OUTSIDE_AUDIO);
    assert.deepEqual(outsideAfterEdit({ task: 'repaint', start: 1, end: 2 }, NO_OUTSIDE_AUDIO), NO_OUTSIDE_AUDIO);
    assert.equal(outsideShare([], 0), 0);
  });
});
