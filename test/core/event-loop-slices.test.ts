import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventLoopSlices, forEachInSlices } from '../../core/src/event-loop-slices.ts';
import { turnsDuring } from '../support/event-loop-turns.ts';

describe('core: long work on the event loop taken in slices', () => {
  it('lets the event loop run at a pause point once its slice has passed, and never within one', async () => {
    const everyPause = eventLoopSlices(0);
    const atEvery = await turnsDuring(async () => {
      for (let i = 0; i < 5; i += 1) await everyPause();
    });
    assert.ok(atEvery.turns >= 5, `${atEvery.turns} turns for 5 pauses of a 0 ms slice`);
    const neverPause = eventLoopSlices(Number.POSITIVE_INFINITY);
    const atNone = await turnsDuring(async () => {
      for (let i = 0; i < 5; i += 1) await neverPause();
    });
    assert.equal(atNone.turns, 0);
  });

  it('throws the reason of an aborted signal at the next pause point', async () => {
    const left = new AbortController();
    const pause = eventLoopSlices(Number.POSITIVE_INFINITY, left.signal);
    await pause();
    left.abort(new Error('the client left'));
    await assert.rejects(pause(), /the client left/);
  });

  it('walks every item once, in order, with pause points between slices of items and not between every two', async () => {
    const items = Array.from({ length: 1_000 }, (_, i) => i);
    const seen: number[] = [];
    const pause = eventLoopSlices(0);
    let pauses = 0;
    const counted = async (): Promise<void> => {
      pauses += 1;
      await pause();
    };
    const { turns } = await turnsDuring(() => forEachInSlices(items, counted, (item) => seen.push(item)));
    assert.deepEqual(seen, items);
    assert.ok(pauses > 1 && pauses < items.length / 10, `${pauses} pause points for ${items.length} items`);
    assert.ok(turns >= pauses, `${turns} turns of the event loop at ${pauses} pause points of a 0 ms slice`);
    pauses = 0;
    await forEachInSlices([], counted, () => assert.fail('no item'));
    assert.equal(pauses, 0, 'no item, no pause');
  });
});
