/**
 * The 3:2 picture a Farcaster client shows for a shared song or creator link (the `imageUrl` of
 * its `fc:miniapp` embed, ./miniapp-embed.ts): the cover on the left, the title and the coin's
 * value on the right, 1200 x 800 PNG. Drawn from SVG by resvg with DejaVu Sans from the npm
 * package `dejavu-fonts-ttf`, so it renders the same on a machine without system fonts.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { escapeMarkup } from './escape-markup.ts';

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = [join(FONT_DIR, 'DejaVuSans.ttf'), join(FONT_DIR, 'DejaVuSans-Bold.ttf')];

export const EMBED_CARD_WIDTH = 1200;
export const EMBED_CARD_HEIGHT = 800;
/** A cover larger than the API's own limit for covers is not drawn. */
export const EMBED_COVER_MAX_BYTES = 5 * 1024 * 1024;

export interface EmbedCard {
  title: string;
  /** A second line under the title (e.g. the creator). */
  subtitle: string | null;
  /** The coin's value as the app shows it, e.g. "Market cap 1.25 ETH"; null before launch. */
  value: string | null;
  /** PNG, JPEG, GIF or WebP bytes of the cover; null: a plain panel. */
  cover: Uint8Array | null;
}

function coverMime(bytes: Uint8Array): string | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return 'image/gif';
  if (Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** Breaks `text` into at most `maxLines` lines of about `perLine` characters, at spaces where it can. */
function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = text.trim().replace(/\s+/g, ' ');
  while (rest.length > 0 && lines.length < maxLines) {
    if (rest.length <= perLine) {
      lines.push(rest);
      break;
    }
    const space = rest.lastIndexOf(' ', perLine);
    const cut = space > perLine / 2 ? space : perLine;
    const line = rest.slice(0, cut).trim();
    rest = rest.slice(cut).trim();
    lines.push(lines.length === maxLines - 1 && rest.length > 0 ? `${line.slice(0, perLine - 1)}…` : line);
  }
  return lines;
}

export function embedCardSvg(card: EmbedCard): string {
  const mime = card.cover !== null && card.cover.byteLength <= EMBED_COVER_MAX_BYTES ? coverMime(card.cover) : null;
  const side = EMBED_CARD_HEIGHT;
  const cover =
    mime === null || card.cover === null
      ? `<rect width="${side}" height="${side}" fill="url(#plain)"/>`
      : `<image href="data:${mime};base64,${Buffer.from(card.cover).toString('base64')}" width="${side}" height="${side}" preserveAspectRatio="xMidYMid slice"/>`;
  const x = side + 40;
  const titleLines = wrap(card.title, 12, 4);
  const title = titleLines
    .map(
      (line, index) =>
        `<text x="${x}" y="${200 + index * 58}" font-size="48" font-weight="bold" fill="#ffffff">${escapeMarkup(line)}</text>`,
    )
    .join('');
  const below = 200 + titleLines.length * 58 + 20;
  const subtitle =
    card.subtitle === null
      ? ''
      : `<text x="${x}" y="${below}" font-size="28" fill="#c9c3e6">${escapeMarkup(card.subtitle.slice(0, 22))}</text>`;
  const value = wrap(card.value ?? 'Not launched yet', 21, 2)
    .map(
      (line, index) =>
        `<text x="${x}" y="${680 + index * 40}" font-size="27" font-weight="bold" fill="#7ee0b5">${escapeMarkup(line)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${EMBED_CARD_WIDTH}" height="${EMBED_CARD_HEIGHT}" font-family="DejaVu Sans">
  <defs><linearGradient id="plain" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5b3fd1"/><stop offset="1" stop-color="#1b1442"/></linearGradient></defs>
  <rect width="${EMBED_CARD_WIDTH}" height="${EMBED_CARD_HEIGHT}" fill="#151129"/>
  ${cover}
  <text x="${x}" y="90" font-size="30" fill="#a99cf0">Songmint</text>
  ${title}${subtitle}${value}
</svg>`;
}

/** The card as PNG bytes. */
export function renderEmbedCard(card: EmbedCard): Buffer {
  const svg = new Resvg(embedCardSvg(card), {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
  });
  return svg.render().asPng();
}

/** Wei as ETH with four significant digits at most ("1.25", "0.0001234"), for the picture's value line. */
export function formatEthShort(wei: bigint): string {
  const eth = Number(wei) / 1e18;
  if (eth === 0) return '0';
  return Number(eth.toPrecision(4)).toString();
}
