import type { Address, Hex } from 'viem';
import { concatHex, encodeAbiParameters, toHex, zeroAddress } from 'viem';
import type { PoolKey } from './pool.ts';
import type { PermitSingle } from './permit2.ts';

/**
 * Universal Router plans for one single-pool v4 swap, encoded with viem from the published
 * constants (universal-router 2.0.0 `Commands.sol`, the router Base runs; v4-periphery 1.0.3 `Actions.sol` and
 * `ActionConstants.sol`). `@uniswap/universal-router-sdk`'s RoutePlanner and `@uniswap/v4-sdk`'s
 * V4Planner build the same bytes but bring ethers v5, jsbi and five more Uniswap packages into the
 * browser bundle for the four commands used here.
 */

/** Universal Router command bytes. */
export const ROUTER_COMMAND = { SWEEP: 0x04, PERMIT2_PERMIT: 0x0a, V4_SWAP: 0x10 } as const;
/** v4-periphery action bytes. */
export const V4_ACTION = { SWAP_EXACT_IN_SINGLE: 0x06, SWAP_EXACT_OUT_SINGLE: 0x08, SETTLE_ALL: 0x0c, TAKE_ALL: 0x0f } as const;
/** ActionConstants.MSG_SENDER: the router reads it as "whoever called execute". */
export const MSG_SENDER: Address = '0x0000000000000000000000000000000000000001';

export interface RouterPlan {
  commands: Hex;
  inputs: Hex[];
}

export interface SingleSwap {
  poolKey: PoolKey;
  /** currency0 (ETH) in, currency1 out. */
  zeroForOne: boolean;
  /** Exact input (`amount` in, `limit` the least out) or exact output (`amount` out, `limit` the most in). */
  exactInput: boolean;
  amount: bigint;
  limit: bigint;
}

const POOL_KEY = {
  type: 'tuple',
  components: [
    { name: 'currency0', type: 'address' },
    { name: 'currency1', type: 'address' },
    { name: 'fee', type: 'uint24' },
    { name: 'tickSpacing', type: 'int24' },
    { name: 'hooks', type: 'address' },
  ],
} as const;

const PERMIT_SINGLE = {
  type: 'tuple',
  components: [
    {
      name: 'details',
      type: 'tuple',
      components: [
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint160' },
        { name: 'expiration', type: 'uint48' },
        { name: 'nonce', type: 'uint48' },
      ],
    },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ],
} as const;

const bytesOf = (codes: number[]): Hex => concatHex(codes.map((code) => toHex(code, { size: 1 })));

/**
 * The V4_SWAP input: the swap, SETTLE_ALL of the input currency (at most the most it may cost) and
 * TAKE_ALL of the output to the caller (at least the least it may bring).
 */
export function encodeV4SingleSwap({ poolKey, zeroForOne, exactInput, amount, limit }: SingleSwap): Hex {
  const [input, output] = zeroForOne ? [poolKey.currency0, poolKey.currency1] : [poolKey.currency1, poolKey.currency0];
  const swap = encodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          { name: 'poolKey', ...POOL_KEY },
          { name: 'zeroForOne', type: 'bool' },
          { name: 'amount', type: 'uint128' },
          { name: 'limit', type: 'uint128' },
          { name: 'hookData', type: 'bytes' },
        ],
      },
    ],
    [{ poolKey, zeroForOne, amount, limit, hookData: '0x' }],
  );
  const [maxIn, minOut] = exactInput ? [amount, limit] : [limit, amount];
  const currencyAmount = [{ type: 'address' }, { type: 'uint256' }] as const;
  const actions = bytesOf([
    exactInput ? V4_ACTION.SWAP_EXACT_IN_SINGLE : V4_ACTION.SWAP_EXACT_OUT_SINGLE,
    V4_ACTION.SETTLE_ALL,
    V4_ACTION.TAKE_ALL,
  ]);
  return encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'bytes[]' }],
    [actions, [swap, encodeAbiParameters(currencyAmount, [input, maxIn]), encodeAbiParameters(currencyAmount, [output, minOut])]],
  );
}

/** The PERMIT2_PERMIT input: the signed PermitSingle, which the router hands to Permit2 for the caller. */
export function encodePermit2Permit(permit: PermitSingle, signature: Hex): Hex {
  return encodeAbiParameters([PERMIT_SINGLE, { type: 'bytes' }], [permit, signature]);
}

/** The SWEEP input that returns the router's leftover ETH to the caller. */
export function encodeSweepEth(): Hex {
  return encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint160' }], [zeroAddress, MSG_SENDER, 0n]);
}

/**
 * A single-pool swap through the Universal Router: the permit first when the input is a token
 * moved by a Permit2 signature, then the swap, then a sweep of the ETH an exact-output buy did not
 * spend.
 */
export function planSingleSwap(swap: SingleSwap, permit?: { permit: PermitSingle; signature: Hex }): RouterPlan {
  const commands: number[] = [];
  const inputs: Hex[] = [];
  if (permit !== undefined) {
    commands.push(ROUTER_COMMAND.PERMIT2_PERMIT);
    inputs.push(encodePermit2Permit(permit.permit, permit.signature));
  }
  commands.push(ROUTER_COMMAND.V4_SWAP);
  inputs.push(encodeV4SingleSwap(swap));
  if (swap.zeroForOne && !swap.exactInput) {
    commands.push(ROUTER_COMMAND.SWEEP);
    inputs.push(encodeSweepEth());
  }
  return { commands: bytesOf(commands), inputs };
}
