/**
 * The built-in model: a small procedural music model expressed as an ONNX graph. It is not a
 * neural network; it is a development and CPU-only stand-in that exercises the same runtime path
 * as a real model (conditioning in, stereo PCM out) and sounds like music: a chord progression on
 * a pad, a bass line, a drum groove and a melody drawn from the key's scale.
 *
 * Inputs (see the manifest): `conditioning` float[12] from the text encoder, `seed` float[2],
 * `rhythm` float[16] (accent per sixteenth note, from the lyrics' syllables), `num_samples` int64[1],
 * `steps` int64[1]. Output: `audio` float[2, num_samples] (planar stereo, 44.1 kHz).
 *
 * Each part lives in `builtin/`: the time grid, the harmony, the melody (refined by `steps`
 * denoising iterations), the lead voice (floor(steps / 9) partials), hats, drums and bass, the pad
 * and the mix. Every voice is computed as [frames, frame_length] tensors on its grid (sixteenths,
 * eighths or bars) with per-frame parameters broadcast over per-sample shapes. The parts are
 * called in a fixed order: names in the graph are numbered in creation order, and a test rebuilds
 * the committed model.onnx byte for byte.
 */
import { CONDITIONING_FIELDS } from './builtin/conditioning.ts';
import { chordPad } from './builtin/chord-pad.ts';
import { drumsAndBass } from './builtin/drums-and-bass.ts';
import { createGraphOps } from './builtin/graph-ops.ts';
import { harmony } from './builtin/harmony.ts';
import { leadVoice } from './builtin/lead-voice.ts';
import { melody } from './builtin/melody.ts';
import { stepGridMix } from './builtin/step-grid-mix.ts';
import { stereoMix } from './builtin/stereo-mix.ts';
import { timingGrid } from './builtin/timing-grid.ts';
import { GraphBuilder, encodeModel } from './onnx-builder.ts';

/** Builds the model bytes. Pure: the same code yields the same bytes. */
export function buildBuiltinModel(): Uint8Array {
  const g = new GraphBuilder('');
  const conditioning = g.input('conditioning', 'float', [CONDITIONING_FIELDS.length]);
  const seed = g.input('seed', 'float', [2]);
  const rhythm = g.input('rhythm', 'float', [16]);
  const numSamples = g.input('num_samples', 'int64', [1]);
  const steps = g.input('steps', 'int64', [1]);

  const ops = createGraphOps(g, conditioning, seed);
  const grid = timingGrid(ops, numSamples, steps);
  const chords = harmony(ops, grid);
  const line = melody(ops, grid, chords, rhythm);
  const voice = leadVoice(ops, grid, line);
  const { stepL, stepR, width } = stepGridMix(ops, grid, line, voice);
  const centre = drumsAndBass(ops, grid, chords, line, voice);
  const pad = chordPad(ops, grid, chords);
  const audio = stereoMix(ops, grid, { pad, centre, stepL, stepR, width });
  g.output(audio, 'audio', 'float', [2, 'num_samples']);

  return encodeModel(
    g.graph('songmint_builtin'),
    'Songmint built-in procedural music model (development and CPU-only hosts); built by scripts/build-model.ts.',
  );
}
