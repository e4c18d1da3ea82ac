import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_AUDIO_BYTES } from '../../core/src/generation-queue.ts';
import { PipelineError, audioSizeRefusal } from '../../inference/src/worker/pipeline.ts';

// The longest song (240 s at 320 kbps) is about 9.6 MB, so no real generation reaches the cap:
// the rule is proved at its boundary on the function the pipeline calls before hashing.
describe('the spec cap on a generated audio file (50 MB)', () => {
  it('accepts a file of exactly 50 MB and refuses one byte more with AUDIO_TOO_LARGE', () => {
    assert.equal(MAX_AUDIO_BYTES, 50 * 1024 * 1024);
    assert.equal(audioSizeRefusal(0), null);
    assert.equal(audioSizeRefusal(9_600_000), null);
    assert.equal(audioSizeRefusal(MAX_AUDIO_BYTES), null);
    const refused = audioSizeRefusal(MAX_AUDIO_BYTES + 1);
    assert.ok(refused instanceof PipelineError);
    assert.equal(refused.code, 'AUDIO_TOO_LARGE');
    assert.match(refused.message, new RegExp(`${MAX_AUDIO_BYTES + 1} bytes, the limit is ${MAX_AUDIO_BYTES}`));
  });
});
