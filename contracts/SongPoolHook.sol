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
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {ISongPoolHook} from "./interfaces/ISongPoolHook.sol";

/// @dev The low 14 bits a SongPoolHook address must carry, matching {SongPoolHook-getHookPermissions}:
/// beforeInitialize, beforeAddLiquidity, beforeSwap, afterSwap, beforeSwapReturnDelta,
/// afterSwapReturnDelta (0x28cc).
uint256 constant SONG_POOL_HOOK_FLAGS = Hooks.BEFORE_INITIALIZE_FLAG | Hooks.BEFORE_ADD_LIQUIDITY_FLAG
    | Hooks.BEFORE_SWAP_FLAG | Hooks.AFTER_SWAP_FLAG | Hooks.BEFORE_SWAP_RETURNS_DELTA_FLAG
    | Hooks.AFTER_SWAP_RETURNS_DELTA_FLAG;

/// @dev Seconds over which the launch fee decays to the base fee, shared with the vault (which holds
/// the launcher's allocation for as long).
uint256 constant SONG_LAUNCH_FEE_DURATION = 120;

/// @title SongPoolHook
/// @notice Uniswap v4 hook of every Songmint song pool (native ETH / SongToken). It
///  - lets only its SongVault (the contract that deployed it) initialize pools with it and add
///    liquidity to them: the vault's locked launch position is the only position a song pool ever
///    has (see below);
///  - charges a swap fee on the ETH side of every swap, credited to the song: the fee becomes
///    PoolManager ERC-6909 claims on ETH held by the hook, with the vault as their ERC-6909
///    operator, and the hook keeps a per-pool running total; the vault burns the claims for a
///    song's new fees when it collects them;
///  - damps launch sniping: the fee starts at LAUNCH_FEE_PIPS (50%) and falls linearly to
///    BASE_FEE_PIPS (1%) over LAUNCH_FEE_DURATION (120 s) after the pool's launch.
/// @dev Every swap kind pays the same share `p` of the ETH that changes hands (the ETH the trader
/// pays on a buy, the ETH the pool pays out on a sell):
///  - where the fee comes out of a gross ETH amount (exact ETH in; exact tokens in, ETH out) it is
///    `ceil(amount * p / 1e6)`;
///  - where it is added on top of a net amount (exact tokens out, ETH in; exact ETH out) it is
///    `ceil(amount * p / (1e6 - p))`, so that it is again `p` of net + fee.
/// The fee is taken through return deltas: in beforeSwap when ETH is the specified currency (exact
/// ETH in, exact ETH out), in afterSwap when ETH is the unspecified one. Fees round up, so splitting
/// a trade cannot dodge them. A swap that specifies its ETH amount is charged before it runs, on the
/// whole amount, so it must fill completely: afterSwap reverts one stopped early by its price limit
/// (`ExactEthSwapNotFilled`) instead of charging a fee on ETH that never changed hands. Swaps that
/// specify the token amount are charged on the ETH actually filled.
/// The hook never sends ETH during a swap, so no recipient can block trading.
/// Why only the vault provides liquidity: a position is a limit order. Tokens placed in a range just
/// below the price are bought by the next buyers, and removing the position pays out ETH through
/// `modifyLiquidity`, which no swap fee touches; so open liquidity would let a sniper (or a launcher
/// parking its allocation) sell without the launch fee, and would let anyone dilute the locked
/// position's LP fees just in time. Refusing every other addition in `beforeAddLiquidity` makes the
/// swap the only way to trade a song token in its pool. Removals need no check: the only position
/// belongs to the vault, which never removes it (its fee collection is a zero-liquidity poke).
/// The hook is deployed by its vault (CREATE2 from the vault's address, salt mined by the vault for
/// the flag bits), which it records as `vault` in its constructor: its address is bound to that
/// vault, so no one else can deploy it, squat its address or bind it to something else.
contract SongPoolHook is BaseHook, ISongPoolHook {
    using PoolIdLibrary for PoolKey;
    using SafeCast for uint256;

    /// @notice Steady-state swap fee: 1% of the ETH side, in pips (millionths).
    uint256 public constant BASE_FEE_PIPS = 10_000;
    /// @notice Swap fee at the launch instant: 50% of the ETH side.
    uint256 public constant LAUNCH_FEE_PIPS = 500_000;
    /// @notice Seconds over which the launch fee decays linearly to the base fee.
    uint256 public constant LAUNCH_FEE_DURATION = SONG_LAUNCH_FEE_DURATION;
    /// @notice The low 14 bits the hook's address carries (Uniswap v4 reads the callbacks from them).
    uint256 public constant HOOK_FLAGS = SONG_POOL_HOOK_FLAGS;
    uint256 private constant _PIPS = 1_000_000;

    /// @dev One slot per pool, read and written once per swap.
    struct PoolState {
        uint40 launchedAt;
        uint216 accruedSwapFees;
    }

    /// @inheritdoc ISongPoolHook
    address public immutable vault; // solhint-disable-line immutable-vars-naming

    mapping(PoolId poolId => PoolState) private _pools;

    /// @dev The pool's ETH delta that the swap in progress must produce to fill completely, set by
    /// beforeSwap for a swap that specifies its ETH amount and checked by afterSwap. Nothing runs
    /// between the two callbacks of one swap but the PoolManager's own pool math.
    int256 private transient _expectedEthFill;

    /// @notice The vault initialized a song pool with this hook.
    /// @param poolId The pool's id.
    /// @param launchedAt Timestamp the launch fee decay starts from.
    event PoolLaunched(PoolId indexed poolId, uint256 launchedAt);
    /// @notice A swap paid `fee` wei of ETH to the song (at `feePips`); `sender` is the router
    /// (the PoolManager's caller), not necessarily the trader.
    /// @param poolId The pool's id.
    /// @param sender The PoolManager's caller (the router).
    /// @param fee Wei of ETH taken for the song.
    /// @param feePips The fee rate applied, in pips (1e6 = 100%).
    event SwapFeeCharged(PoolId indexed poolId, address indexed sender, uint256 fee, uint256 feePips);

    /// @notice A swap that specified its ETH amount was stopped early (by its price limit, or the
    /// pool ran out of liquidity): its fee was charged on the whole amount, so it reverts.
    /// @param expected The pool's ETH delta a complete fill gives (negative: ETH into the pool).
    /// @param filled The pool's ETH delta of the partial fill.
    error ExactEthSwapNotFilled(int256 expected, int256 filled);
    /// @notice Only the bound vault initializes pools with this hook.
    error OnlyVault(address sender);
    /// @notice Only the bound vault adds liquidity to a song pool: `sender` (the PoolManager's
    /// caller, a router or position manager) may not.
    error LiquidityOnlyFromVault(address sender);
    /// @notice Song pools pair native ETH (currency0) with the song token.
    error NotNativeEthPool();

    /// @notice Binds the hook to its deployer, the SongVault: the only account that may initialize
    /// pools with it, and the ERC-6909 operator of its fee claims (the PoolManager logs
    /// `OperatorSet(hook, vault, true)`).
    /// @param poolManager_ The Uniswap v4 PoolManager.
    constructor(IPoolManager poolManager_) BaseHook(poolManager_) {
        vault = msg.sender;
        poolManager_.setOperator(msg.sender, true);
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

    function _beforeInitialize(address sender, PoolKey calldata key, uint160) internal override returns (bytes4) {
        if (sender != vault) revert OnlyVault(sender);
        if (!key.currency0.isAddressZero()) revert NotNativeEthPool();
        PoolId poolId = key.toId();
        _pools[poolId].launchedAt = uint40(block.timestamp);
        emit PoolLaunched(poolId, block.timestamp);
        return this.beforeInitialize.selector;
    }

    /// @dev Refuses every addition of liquidity that the vault did not make (see the contract notes).
    function _beforeAddLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        internal
        view
        override
        returns (bytes4)
    {
        if (sender != vault) revert LiquidityOnlyFromVault(sender);
        return this.beforeAddLiquidity.selector;
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
        // Exact ETH in: the fee comes out of the ETH paid. Exact ETH out: it is added on top.
        int128 fee = _chargeFee(sender, key, amount, !exactInput).toInt128();
        // The pool now swaps amountSpecified + fee of ETH (less ETH in, more ETH out).
        _expectedEthFill = params.amountSpecified + fee;
        return (this.beforeSwap.selector, toBeforeSwapDelta(fee, 0), 0);
    }

    function _afterSwap(
        address sender,
        PoolKey calldata key,
        SwapParams calldata params,
        BalanceDelta delta,
        bytes calldata
    ) internal override returns (bytes4, int128) {
        bool exactInput = params.amountSpecified < 0;
        int128 ethDelta = delta.amount0();
        if (params.zeroForOne != exactInput) {
            // ETH is the unspecified currency (exact tokens out, ETH in; exact tokens in, ETH out):
            // charge what was filled. Exact tokens out: the fee is added on top of the ETH the pool takes.
            uint256 amount = ethDelta < 0 ? uint256(-int256(ethDelta)) : uint256(int256(ethDelta));
            return (this.afterSwap.selector, _chargeFee(sender, key, amount, !exactInput).toInt128());
        }
        // ETH was specified and charged in full by beforeSwap: only a complete fill may stand.
        int256 expected = _expectedEthFill;
        if (ethDelta != expected) revert ExactEthSwapNotFilled(expected, ethDelta);
        return (this.afterSwap.selector, 0);
    }

    /// @dev Credits the fee of a swap moving `amount` of ETH to the pool's running total and settles
    /// the hook's ETH delta by minting itself an ERC-6909 claim (the vault is its operator), which
    /// moves no ETH during the swap and reads no other storage. `onTop`: `amount` is net of the fee
    /// (the fee is added to it), so the fee is `p / (1 - p)` of it, `p` of the gross amount.
    function _chargeFee(address sender, PoolKey calldata key, uint256 amount, bool onTop)
        private
        returns (uint256 fee)
    {
        PoolId poolId = key.toId();
        PoolState storage pool = _pools[poolId];
        uint256 feePips = swapFeePips(pool.launchedAt);
        uint256 denominator = onTop ? _PIPS - feePips : _PIPS;
        fee = (amount * feePips + denominator - 1) / denominator;
        if (fee == 0) return 0;
        pool.accruedSwapFees += uint216(fee);
        poolManager.mint(address(this), CurrencyLibrary.ADDRESS_ZERO.toId(), fee);
        emit SwapFeeCharged(poolId, sender, fee, feePips);
    }
}
