// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHook} from "@openzeppelin/uniswap-hooks/src/base/BaseHook.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {SafeCast} from "@uniswap/v4-core/src/libraries/SafeCast.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary, toBeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {CurrencyLibrary} from "@uniswap/v4-core/src/types/Currency.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {ISongPoolHook} from "./interfaces/ISongPoolHook.sol";

/// @title SongPoolHook
/// @notice Uniswap v4 hook of every Songmint song pool (native ETH / SongToken). It
///  - lets only the SongVault initialize pools with it;
///  - charges a swap fee on the ETH side of every swap (ETH paid in, or ETH paid out), credited to
///    the song: the fee becomes PoolManager ERC-6909 claims on ETH held by the hook, with the vault
///    as their ERC-6909 operator, and the hook keeps a per-pool running total; the vault burns the
///    claims for a song's new fees when it collects them;
///  - damps launch sniping: the fee starts at LAUNCH_FEE_PIPS (50%) and falls linearly to
///    BASE_FEE_PIPS (1%) over LAUNCH_FEE_DURATION (120 s) after the pool's launch.
/// @dev The fee is taken through return deltas: in beforeSwap when ETH is the specified currency
/// (exact ETH in, exact ETH out), in afterSwap when ETH is the unspecified one. Fees round up, so
/// splitting a trade cannot dodge them. With a price limit that stops an ETH-specified swap early
/// the fee is still computed on the requested amount (it is charged before the swap runs).
/// The hook never sends ETH during a swap, so no recipient can block trading.
/// The constructor takes only the PoolManager, so the CREATE2 address (mined for the flag bits)
/// does not depend on the vault; the vault binds itself once, from its constructor.
contract SongPoolHook is BaseHook, ISongPoolHook {
    using PoolIdLibrary for PoolKey;
    using SafeCast for uint256;

    /// @notice Steady-state swap fee: 1% of the ETH side, in pips (millionths).
    uint256 public constant BASE_FEE_PIPS = 10_000;
    /// @notice Swap fee at the launch instant: 50% of the ETH side.
    uint256 public constant LAUNCH_FEE_PIPS = 500_000;
    /// @notice Seconds over which the launch fee decays linearly to the base fee.
    uint256 public constant LAUNCH_FEE_DURATION = 120;
    uint256 private constant _PIPS = 1_000_000;

    /// @dev One slot per pool, read and written once per swap.
    struct PoolState {
        uint40 launchedAt;
        uint216 accruedSwapFees;
    }

    /// @inheritdoc ISongPoolHook
    address public vault;

    mapping(PoolId poolId => PoolState) private _pools;

    /// @notice The vault was bound.
    event VaultBound(address indexed vault);
    /// @notice The vault initialized a song pool with this hook.
    event PoolLaunched(PoolId indexed poolId, uint256 launchedAt);
    /// @notice A swap paid `fee` wei of ETH to the song (at `feePips`); `sender` is the router
    /// (the PoolManager's caller), not necessarily the trader.
    event SwapFeeCharged(PoolId indexed poolId, address indexed sender, uint256 fee, uint256 feePips);

    /// @notice {bindVault} was already called.
    error VaultAlreadyBound(address vault);
    /// @notice Only the bound vault initializes pools with this hook.
    error OnlyVault(address sender);
    /// @notice Song pools pair native ETH (currency0) with the song token.
    error NotNativeEthPool();

    /// @param poolManager_ The Uniswap v4 PoolManager.
    constructor(IPoolManager poolManager_) BaseHook(poolManager_) {}

    /// @inheritdoc ISongPoolHook
    function bindVault() external {
        if (vault != address(0)) revert VaultAlreadyBound(vault);
        vault = msg.sender;
        poolManager.setOperator(msg.sender, true);
        emit VaultBound(msg.sender);
    }

    /// @inheritdoc ISongPoolHook
    function accruedSwapFees(PoolId poolId) external view returns (uint256) {
        return _pools[poolId].accruedSwapFees;
    }

    /// @notice When the vault launched `poolId` (0 if never).
    /// @param poolId The pool.
    function launchedAt(PoolId poolId) external view returns (uint256) {
        return _pools[poolId].launchedAt;
    }

    /// @inheritdoc ISongPoolHook
    function swapFeePips(uint256 launchTime) public view returns (uint256) {
        uint256 elapsed = block.timestamp - launchTime;
        if (elapsed >= LAUNCH_FEE_DURATION) return BASE_FEE_PIPS;
        return LAUNCH_FEE_PIPS - ((LAUNCH_FEE_PIPS - BASE_FEE_PIPS) * elapsed) / LAUNCH_FEE_DURATION;
    }

    /// @notice The callbacks this hook implements (the low 14 bits of its address must match).
    function getHookPermissions() public pure override returns (Hooks.Permissions memory) {
        return Hooks.Permissions({
            beforeInitialize: true,
            afterInitialize: false,
            beforeAddLiquidity: false,
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

    function _beforeInitialize(address sender, PoolKey calldata key, uint160) internal override returns (bytes4) {
        if (sender != vault) revert OnlyVault(sender);
        if (!key.currency0.isAddressZero()) revert NotNativeEthPool();
        PoolId poolId = key.toId();
        _pools[poolId].launchedAt = uint40(block.timestamp);
        emit PoolLaunched(poolId, block.timestamp);
        return this.beforeInitialize.selector;
    }

    function _beforeSwap(address sender, PoolKey calldata key, SwapParams calldata params, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        bool exactInput = params.amountSpecified < 0;
        // ETH is the specified currency when buying with exact ETH in or selling for exact ETH out.
        if (params.zeroForOne != exactInput) {
            return (this.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
        }
        uint256 amount = exactInput ? uint256(-params.amountSpecified) : uint256(params.amountSpecified);
        int128 fee = _chargeFee(sender, key, amount).toInt128();
        return (this.beforeSwap.selector, toBeforeSwapDelta(fee, 0), 0);
    }

    function _afterSwap(
        address sender,
        PoolKey calldata key,
        SwapParams calldata params,
        BalanceDelta delta,
        bytes calldata
    ) internal override returns (bytes4, int128) {
        // ETH is the unspecified currency when buying exact tokens out or selling exact tokens in.
        if (params.zeroForOne == (params.amountSpecified < 0)) return (this.afterSwap.selector, 0);
        int128 ethDelta = delta.amount0();
        uint256 amount = ethDelta < 0 ? uint256(-int256(ethDelta)) : uint256(int256(ethDelta));
        return (this.afterSwap.selector, _chargeFee(sender, key, amount).toInt128());
    }

    /// @dev Credits `fee` of `amount` to the pool's running total and settles the hook's ETH delta
    /// by minting itself an ERC-6909 claim (the vault is its operator), which moves no ETH during
    /// the swap and reads no other storage.
    function _chargeFee(address sender, PoolKey calldata key, uint256 amount) private returns (uint256 fee) {
        PoolId poolId = key.toId();
        PoolState storage pool = _pools[poolId];
        uint256 feePips = swapFeePips(pool.launchedAt);
        fee = (amount * feePips + _PIPS - 1) / _PIPS;
        if (fee == 0) return 0;
        pool.accruedSwapFees += uint216(fee);
        poolManager.mint(address(this), CurrencyLibrary.ADDRESS_ZERO.toId(), fee);
        emit SwapFeeCharged(poolId, sender, fee, feePips);
    }
}
