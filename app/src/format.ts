import { formatEther } from 'viem';

export const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
export const eth = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 6 })} ETH`;
/** A small price in plain decimals, never e-notation: 0.000000001234 (four significant digits). */
export const plainNumber = (value: number) =>
  value.toLocaleString('en-US', { maximumSignificantDigits: 4, maximumFractionDigits: 20, useGrouping: true });
/**
 * The app's one price unit: ETH per 1,000,000 tokens (a song token's price per token is too small
 * to read), from the API's decimal string or a pool's tokens per ETH: "0.01002 ETH per 1M tokens".
 */
export const pricePerMillion = (ethPerMillion: string | number) => `${plainNumber(Number(ethPerMillion))} ETH per 1M tokens`;
export const pricePerMillionOf = (tokensPerEth: number) => pricePerMillion(tokensPerEth === 0 ? 0 : 1e6 / tokensPerEth);
export const percentOfPips = (pips: bigint) => `${(Number(pips) / 10_000).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
/**
 * `text` shortened to at most `max` characters at a word's end, with "…" when cut: what a screen
 * reader says of a title is whole words ("Your song “warm lo-fi piano, 80 bpm,…” is ready"), never a
 * word cut in two. A first word longer than `max` is cut, as nothing else fits.
 */
export function shortText(text: string, max: number): string {
  const whole = text.trim();
  if (whole.length <= max) return whole;
  const cut = whole.slice(0, max);
  // The cut ends a word when the next character is a space; else the word it cut goes.
  const end = /\s/.test(whole.charAt(max)) ? max : cut.search(/\s\S*$/);
  return `${(end > 0 ? cut.slice(0, end) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
export const clock = (date: Date) => date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
/** A date a person reads with its day: "5 Dec 2026, 14:05". */
export const dateTime = (date: Date) =>
  `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}, ${date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/**
 * A launch allocation's vesting in one line: "50,000,000 tokens: 0 tokens vested, 0 tokens claimed;
 * nothing vests before 5 Dec 2026, 14:05, all by 3 Jun 2027, 14:05".
 */
export function vestingLine(allocation: { total: bigint; vested: bigint; claimed: bigint; cliffEnd: bigint; vestingEnd: bigint }): string {
  const at = (seconds: bigint) => dateTime(new Date(Number(seconds) * 1000));
  const when =
    allocation.vested === 0n
      ? `nothing vests before ${at(allocation.cliffEnd)}, all by ${at(allocation.vestingEnd)}`
      : allocation.vested < allocation.total
        ? `the rest vests by ${at(allocation.vestingEnd)}`
        : 'all of it has vested';
  return `${tokens(allocation.total)}: ${tokens(allocation.vested)} vested, ${tokens(allocation.total - allocation.vested)} unvested, ${tokens(allocation.claimed)} claimed; ${when}`;
}

/** A count with its noun: "1 song", "12 songs", "1,204 songs". */
export const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A local time a person can wait for, with its time zone: "14:05 CET", or "01:00 CET on Sat 29 Nov"
 * when it is not today (a reset at midnight UTC is tomorrow for most of the world).
 */
export function whenLocal(date: Date, now = new Date(), timeZone?: string): string {
  const zone = timeZone === undefined ? {} : { timeZone };
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZoneName: 'short', ...zone });
  const day = (at: Date) => at.toLocaleDateString('en-GB', { year: 'numeric', month: 'numeric', day: 'numeric', ...zone });
  if (day(date) === day(now)) return time;
  return `${time} on ${date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', ...zone })}`;
}

/** One of the profile's limits (`limits.songs.daily`, `limits.songs.hourly`). */
interface LimitLeft {
  used: number;
  remaining: number;
  reset_at: string;
}

/**
 * What the next Generate has left, said once: the day's songs, the hour's only when they are
 * fewer, and when more come back (a local time with its zone and, when not today, its date).
 */
export function songsLeft(songs: { daily: LimitLeft; hourly: LimitLeft }, now = new Date(), timeZone?: string): string {
  const { daily, hourly } = songs;
  const when = (limit: LimitLeft) => whenLocal(new Date(limit.reset_at), now, timeZone);
  if (daily.remaining === 0) return `No songs left today: more from ${when(daily)}.`;
  if (hourly.remaining === 0) return `No songs left this hour (${count(daily.remaining, 'song')} left today): more from ${when(hourly)}.`;
  if (hourly.remaining < daily.remaining)
    return `${count(daily.remaining, 'song')} left today, ${hourly.remaining} of them this hour (the hour's count resets at ${when(hourly)}).`;
  return `${count(daily.remaining, 'song')} left today${daily.used > 0 ? ` (the count resets at ${when(daily)})` : ''}.`;
}
