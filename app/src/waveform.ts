/**
 * A waveform drawn from the decoded MP3 (Web Audio's decodeAudioData): the peak of each column,
 * mirrored around the middle. The audio is fetched once; the storage serves it with CORS.
 */
const COLUMNS = 160;

export function waveformPeaks(samples: Float32Array, columns = COLUMNS): number[] {
  const size = Math.max(1, Math.floor(samples.length / columns));
  const peaks: number[] = [];
  for (let column = 0; column < columns; column += 1) {
    let peak = 0;
    for (let index = column * size; index < Math.min(samples.length, (column + 1) * size); index += 1)
      peak = Math.max(peak, Math.abs(samples[index] ?? 0));
    peaks.push(peak);
  }
  return peaks;
}

/** Decodes `audioUrl` and draws it on `canvas`; returns the number of columns drawn. */
export async function drawWaveform(canvas: HTMLCanvasElement, audioUrl: string, signal: AbortSignal): Promise<number> {
  const response = await fetch(audioUrl, { signal });
  if (!response.ok) throw new Error(`the audio answered HTTP ${response.status}`);
  const context = new OfflineAudioContext(1, 1, 44_100);
  const audio = await context.decodeAudioData(await response.arrayBuffer());
  const peaks = waveformPeaks(audio.getChannelData(0));
  const loudest = Math.max(...peaks, 1e-6);
  const draw = canvas.getContext('2d');
  if (draw === null) throw new Error('This browser cannot draw (no 2D canvas)');
  const { width, height } = canvas;
  draw.clearRect(0, 0, width, height);
  draw.fillStyle = getComputedStyle(canvas).color;
  const step = width / peaks.length;
  for (const [index, peak] of peaks.entries()) {
    const bar = Math.max(1, (peak / loudest) * (height - 2));
    draw.fillRect(index * step, (height - bar) / 2, Math.max(1, step - 1), bar);
  }
  canvas.dataset.columns = String(peaks.length);
  return peaks.length;
}
