// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHook} from "@openzeppelin/uniswap-hooks/src/base/BaseHook.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary, toBeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @title LeanFeeHookPrototype
/// @notice Bench-only: SongPoolHook's swap fee rule (the same rate, rounding and callbacks) with the
/// per-swap bookkeeping a hook cannot do without cut to its floor, to measure, before rebuilding
/// SongPoolHook, what a redesign can reach. Per swap it reads one slot (the pool's launch time) and
/// mints the fee as PoolManager ERC-6909 claims on ETH to the pool's token address (a per-song owner,
/// so the claims themselves are the song's running total): no storage write of its own and no event
/// of its own (the PoolManager's ERC-6909 `Transfer` to the token logs the fee). Anyone may initialize
/// pools and add liquidity: it guards nothing, it only prices.
contract LeanFeeHookPrototype is BaseHook {
    uint256 private constant _BASE_FEE_PIPS = 10_000;
    uint256 private constant _LAUNCH_FEE_PIPS = 500_000;
    uint256 private constant _LAUNCH_FEE_DURATION = 120;
    uint256 private constant _PIPS = 1_000_000;

    mapping(bytes32 poolId => uint256) private _launchedAt;
    int256 private transient _expectedEthFill;

    /// @notice A swap specifying its ETH amount stopped early.
    error ExactEthSwapNotFilled(int256 expected, int256 filled);

    /// @notice Creates the prototype; its address must carry SongPoolHook's flags.
    /// @param poolManager_ The Uniswap v4 PoolManager.
    constructor(IPoolManager poolManager_) BaseHook(poolManager_) {}

    /// @notice SongPoolHook's callbacks (0x28cc).
    function getHookPermissions() public pure override returns (Hooks.Permissions memory) {
        return Hooks.Permissions({
            beforeInitialize: true,
            afterInitialize: false,
            beforeAddLiquidity: true,
            afterAddLiquidity: false,
            beforeRemoveLiquidity: false,
            afterRemoveLiquidity: false,
            beforeSwap: true,
            afterSwap: true,
            beforeDonate: false,
            afterDonate: false,
            beforeSwapReturnDelta: true,
            afterSwapReturnDelta: true,
            afterAddLiquidityReturnDelta: false,
            afterRemoveLiquidityReturnDelta: false
        });
    }

    function _beforeInitialize(address, PoolKey calldata key, uint160) internal override returns (bytes4) {
        _launchedAt[_poolId(key)] = block.timestamp;
        return this.beforeInitialize.selector;
    }

    function _beforeAddLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        internal
        pure
        override
        returns (bytes4)
    {
        return this.beforeAddLiquidity.selector;
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata params, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        bool exactInput = params.amountSpecified < 0;
        if (params.zeroForOne != exactInput) return (this.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
        uint256 amount = exactInput ? uint256(-params.amountSpecified) : uint256(params.amountSpecified);
        int128 fee = int128(int256(_chargeFee(key, amount, !exactInput)));
        _expectedEthFill = params.amountSpecified + fee;
        return (this.beforeSwap.selector, toBeforeSwapDelta(fee, 0), 0);
    }

    function _afterSwap(address, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata)
        internal
        override
        returns (bytes4, int128)
    {
        bool exactInput = params.amountSpecified < 0;
        int128 ethDelta = delta.amount0();
        if (params.zeroForOne != exactInput) {
            uint256 amount = ethDelta < 0 ? uint256(-int256(ethDelta)) : uint256(int256(ethDelta));
            return (this.afterSwap.selector, int128(int256(_chargeFee(key, amount, !exactInput))));
        }
        int256 expected = _expectedEthFill;
        if (ethDelta != expected) revert ExactEthSwapNotFilled(expected, ethDelta);
        return (this.afterSwap.selector, 0);
    }

    function _chargeFee(PoolKey calldata key, uint256 amount, bool onTop) private returns (uint256 fee) {
        uint256 elapsed = block.timestamp - _launchedAt[_poolId(key)];
        uint256 feePips = elapsed >= _LAUNCH_FEE_DURATION
            ? _BASE_FEE_PIPS
            : _LAUNCH_FEE_PIPS - ((_LAUNCH_FEE_PIPS - _BASE_FEE_PIPS) * elapsed) / _LAUNCH_FEE_DURATION;
        uint256 denominator = onTop ? _PIPS - feePips : _PIPS;
        fee = (amount * feePips + denominator - 1) / denominator;
        if (fee != 0) poolManager.mint(Currency.unwrap(key.currency1), 0, fee);
    }

    /// @dev The v4 PoolId, hashed straight from calldata (the key is five words there).
    function _poolId(PoolKey calldata key) private pure returns (bytes32 id) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, key, 0xa0)
            id := keccak256(m, 0xa0)
        }
    }
}
