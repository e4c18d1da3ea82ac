import { formatEther } from 'viem';

export const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
export const eth = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 6 })} ETH`;
/** A small price in plain decimals, never e-notation: 0.000000001234 (four significant digits). */
export const plainNumber = (value: number) =>
  value.toLocaleString('en-US', { maximumSignificantDigits: 4, maximumFractionDigits: 20, useGrouping: true });
export const percentOfPips = (pips: bigint) => `${(Number(pips) / 10_000).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
export const clock = (date: Date) => date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** One of the profile's limits (`limits.songs.daily`, `limits.songs.hourly`). */
interface LimitLeft {
  used: number;
  remaining: number;
  reset_at: string;
}

/**
 * "N songs left today, M this hour, back at <local time>": the time is when the tighter of the two
 * limits (fewer left; the later reset on a tie) starts again, shown once a song has used it.
 */
export function songsLeft(songs: { daily: LimitLeft; hourly: LimitLeft }): string {
  const { daily, hourly } = songs;
  const tighter =
    daily.remaining !== hourly.remaining
      ? daily.remaining < hourly.remaining
        ? daily
        : hourly
      : Date.parse(daily.reset_at) >= Date.parse(hourly.reset_at)
        ? daily
        : hourly;
  const back = tighter.used > 0 ? `, back at ${clock(new Date(tighter.reset_at))}` : '';
  return `${daily.remaining} ${daily.remaining === 1 ? 'song' : 'songs'} left today, ${hourly.remaining} this hour${back}.`;
}
