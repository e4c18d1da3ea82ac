import { formatEther } from 'viem';

export const tokens = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 2 })} tokens`;
export const eth = (amount: bigint) => `${Number(formatEther(amount)).toLocaleString('en-US', { maximumFractionDigits: 6 })} ETH`;
export const percentOfPips = (pips: bigint) => `${(Number(pips) / 10_000).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
export const clock = (date: Date) => date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
