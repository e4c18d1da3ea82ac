/** A 256x256 PNG cover drawn from the audio hash (two colours and rings), as a data URI. */
export function coverDataUri(audioHash: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 256;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('This browser cannot draw the cover (no 2D canvas)');
  const hue = (offset: number) => (parseInt(audioHash.slice(2 + offset, 6 + offset), 16) % 360).toString();
  const gradient = context.createLinearGradient(0, 0, 256, 256);
  gradient.addColorStop(0, `hsl(${hue(0)} 70% 45%)`);
  gradient.addColorStop(1, `hsl(${hue(8)} 70% 30%)`);
  context.fillStyle = gradient;
  context.fillRect(0, 0, 256, 256);
  context.strokeStyle = 'rgba(255, 255, 255, 0.35)';
  for (let ring = 1; ring <= 6; ring += 1) {
    context.lineWidth = 1 + (parseInt(audioHash.slice(10 + ring * 2, 12 + ring * 2), 16) % 6);
    context.beginPath();
    context.arc(128, 128, ring * 18, 0, Math.PI * 2);
    context.stroke();
  }
  return canvas.toDataURL('image/png');
}
