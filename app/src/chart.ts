import { plainNumber } from './format.ts';

/**
 * The price chart of a song page: an SVG line of tokens per ETH over time, drawn here (no charting
 * library: the first load stays inside the script budget). Points are the pool's launch price and
 * the price after each swap, oldest first.
 */
export interface PricePoint {
  time: Date;
  /** ETH per 1M song tokens (the app's price unit): a buy raises it. */
  price: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 8, right: 8, top: 12, bottom: 20 };
const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

const formatPrice = (price: number) => plainNumber(price);

/** Draws `points` as a scalable SVG with a text alternative; one point or none draws a flat line or a note. */
export function priceChart(points: ReadonlyArray<PricePoint>): SVGSVGElement {
  const first = points[0];
  const last = points.at(-1);
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'data-points': points.length });
  const title = svg('title', {});
  title.textContent =
    first === undefined || last === undefined
      ? 'No price yet'
      : `Price in ETH per 1M tokens over ${points.length} points: from ${formatPrice(first.price)} to ${formatPrice(last.price)}`;
  chart.append(title);
  if (first === undefined || last === undefined) return chart;
  const prices = points.map((point) => point.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const span = high - low || Math.abs(high) || 1;
  // Spread by order, not by time: trades minutes apart and days apart stay readable.
  const x = (index: number) => PAD.left + (points.length === 1 ? 0 : (index / (points.length - 1)) * (WIDTH - PAD.left - PAD.right));
  const y = (price: number) => PAD.top + (1 - (price - low) / span) * (HEIGHT - PAD.top - PAD.bottom);
  const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.price).toFixed(1)}`).join(' ');
  const line = points.length === 1 ? `M${PAD.left},${y(first.price).toFixed(1)} L${WIDTH - PAD.right},${y(first.price).toFixed(1)}` : path;
  const rising = last.price >= first.price;
  chart.append(
    svg('path', { d: `${line} L${WIDTH - PAD.right},${HEIGHT - PAD.bottom} L${PAD.left},${HEIGHT - PAD.bottom} Z`, class: 'chart-area' }),
    svg('path', { d: line, class: rising ? 'chart-line up' : 'chart-line down', fill: 'none' }),
  );
  for (const [index, point] of points.entries())
    chart.append(svg('circle', { cx: x(index).toFixed(1), cy: y(point.price).toFixed(1), r: 3, class: 'chart-dot' }));
  const label = (text: string, atY: number) => {
    const element = svg('text', { x: WIDTH - PAD.right, y: atY, 'text-anchor': 'end', class: 'chart-label' });
    element.textContent = text;
    return element;
  };
  chart.append(label(`${formatPrice(high)} ETH`, PAD.top + 10), label(`${formatPrice(low)} ETH`, HEIGHT - 4));
  return chart;
}
