// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
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

// The fallback is the swap callbacks' dispatch, on purpose (see {SongPoolHook-fallback}).
// solhint-disable no-complex-fallback
/// @title SongPoolHook
/// @notice Uniswap v4 hook of every Songmint song pool (native ETH / SongToken). It
///  - lets only its SongVault (the contract that deployed it) initialize pools with it and add
///    liquidity to them: the vault's locked launch position is the only position a song pool ever
///    has (see below);
///  - charges a swap fee on the ETH side of every swap, credited to the song: the fee becomes
///    PoolManager ERC-6909 claims on ETH minted in the name of the pool's SongToken (its
///    `currency1`), so the claims held by a song's token are that song's uncollected hook fees;
///    the vault has the token hand them over when it collects the song's fees
///    (`SongToken.releaseFeeClaims`);
///  - damps launch sniping: the fee starts at LAUNCH_FEE_PIPS (50%) and falls linearly to
///    BASE_FEE_PIPS (1%) over LAUNCH_FEE_DURATION (120 s) after the pool's launch;
///  - burns the launch fee: of a fee charged at a rate `p` above BASE_FEE_PIPS, only the steady
///    part `fee * BASE_FEE_PIPS / p` (rounded down) is credited to the song; the rest is minted as
///    ETH claims to the hook itself, which has no code path that moves, burns or redeems claims, so
///    that ETH stays in the PoolManager for good (`burntLaunchFees`). Nobody profits from a snipe:
///    not the creator (who would otherwise get its share of its own launch-block buy back, paying
///    a third of a sniper's rate), and not the platform (which would then be the one party the
///    launch fee does not bind).
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
/// Gas: a swap reads one slot of the hook (the pool's launch time) and writes none; its fee is one
/// ERC-6909 mint to the token, and the hook logs nothing of its own: the PoolManager's logs of the
/// same swap already say everything an indexer needs. The fee is the amount of the PoolManager's
/// ERC-6909 `Transfer(caller = hook, from = 0, to = the pool's SongToken, id = 0 (ETH), amount)`
/// of the mint, the pool, router and amounts are its `Swap(id, sender, amount0, amount1, ...)`
/// (the fee rate, if wanted, is the fee over the ETH side). The per-song running total is the
/// token's claim balance plus what the vault has collected (`SongVault.accruedSwapFees`), so the
/// hook keeps no counter; the swap callbacks read the pool key and swap parameters straight from
/// calldata. docs/launch.md ("Gas") has the figures.
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
contract SongPoolHook is ISongPoolHook {
    /// @notice Steady-state swap fee: 1% of the ETH side, in pips (millionths).
    uint256 public constant BASE_FEE_PIPS = 10_000;
    /// @notice Swap fee at the launch instant: 50% of the ETH side.
    uint256 public constant LAUNCH_FEE_PIPS = 500_000;
    /// @notice Seconds over which the launch fee decays linearly to the base fee.
    uint256 public constant LAUNCH_FEE_DURATION = SONG_LAUNCH_FEE_DURATION;
    /// @notice The low 14 bits the hook's address carries (Uniswap v4 reads the callbacks from them).
    uint256 public constant HOOK_FLAGS = SONG_POOL_HOOK_FLAGS;
    uint256 private constant _PIPS = 1_000_000;
    /// @dev ERC-6909 id of native ETH claims in the PoolManager (the currency's address).
    uint256 private constant _ETH_ID = 0;
    /// @dev Largest ETH amount a swap may move through the hook: v4 deltas are int128, so a real swap
    /// never comes near it; it bounds the fee arithmetic.
    uint256 private constant _MAX_ETH_AMOUNT = 2 ** 126;
    // Calldata offsets of beforeSwap(address sender, PoolKey key, SwapParams params, bytes) and
    // afterSwap(address sender, PoolKey key, SwapParams params, BalanceDelta delta, bytes): the
    // selector, then static words (the PoolKey's five, the SwapParams' three) until `delta`.
    uint256 private constant _POOL_KEY = 0x24;
    uint256 private constant _CURRENCY1 = 0x44;
    uint256 private constant _ZERO_FOR_ONE = 0xc4;
    uint256 private constant _AMOUNT_SPECIFIED = 0xe4;
    uint256 private constant _DELTA = 0x124;

    /// @notice The Uniswap v4 PoolManager, the only caller of the callbacks.
    IPoolManager public immutable poolManager; // solhint-disable-line immutable-vars-naming
    /// @inheritdoc ISongPoolHook
    address public immutable vault; // solhint-disable-line immutable-vars-naming

    /// @dev The one slot a swap reads: when the vault launched the pool.
    mapping(PoolId poolId => uint256) private _launchedAt;

    /// @dev The pool's ETH delta that the swap in progress must produce to fill completely, set by
    /// beforeSwap for a swap that specifies its ETH amount and checked by afterSwap. Nothing runs
    /// between the two callbacks of one swap but the PoolManager's own pool math.
    int256 private transient _expectedEthFill;

    /// @notice The vault initialized a song pool with this hook.
    /// @param poolId The pool's id.
    /// @param launchedAt Timestamp the launch fee decay starts from.
    event PoolLaunched(PoolId indexed poolId, uint256 launchedAt);
    /// @notice A swap that specified its ETH amount was stopped early (by its price limit, or the
    /// pool ran out of liquidity): its fee was charged on the whole amount, so it reverts.
    /// @param expected The pool's ETH delta a complete fill gives (negative: ETH into the pool).
    /// @param filled The pool's ETH delta of the partial fill.
    error ExactEthSwapNotFilled(int256 expected, int256 filled);
    /// @notice A swap moved more ETH than v4's int128 deltas allow (never on a real pool).
    error EthAmountTooLarge(uint256 amount);
    /// @notice The call names no function of the hook (v4 calls only the callbacks of its flags).
    error HookNotImplemented();
    /// @notice Only the PoolManager calls the hook's callbacks.
    error NotPoolManager();
    /// @notice Only the bound vault initializes pools with this hook.
    error OnlyVault(address sender);
    /// @notice Only the bound vault adds liquidity to a song pool: `sender` (the PoolManager's
    /// caller, a router or position manager) may not.
    error LiquidityOnlyFromVault(address sender);
    /// @notice Song pools pair native ETH (currency0) with the song token.
    error NotNativeEthPool();

    /// @notice Binds the hook to its deployer, the SongVault: the only account that may initialize
    /// pools with it and add liquidity to them. Reverts unless the hook's address carries exactly
    /// the flags of {getHookPermissions} (`Hooks.HookAddressNotValid`).
    /// @param poolManager_ The Uniswap v4 PoolManager.
    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
        vault = msg.sender;
        Hooks.validateHookPermissions(IHooks(address(this)), getHookPermissions());
    }

    /// @notice All launch fees burnt by this hook, in wei: the ETH claims it holds (the parts of
    /// in-window fees above the steady rate, over every song pool; anything anyone transfers to the
    /// hook is burnt with them). Per swap, the PoolManager's ERC-6909 `Transfer` from 0 to the hook.
    function burntLaunchFees() external view returns (uint256) {
        return poolManager.balanceOf(address(this), _ETH_ID);
    }

    /// @notice When the vault launched `poolId` (0 if never).
    /// @param poolId The pool.
    function launchedAt(PoolId poolId) external view returns (uint256) {
        return _launchedAt[poolId];
    }

    /// @inheritdoc ISongPoolHook
    function swapFeePips(uint256 launchTime) public view returns (uint256) {
        uint256 elapsed = block.timestamp - launchTime;
        if (elapsed >= LAUNCH_FEE_DURATION) return BASE_FEE_PIPS;
        return LAUNCH_FEE_PIPS - ((LAUNCH_FEE_PIPS - BASE_FEE_PIPS) * elapsed) / LAUNCH_FEE_DURATION;
    }

    /// @notice The callbacks this hook implements (the low 14 bits of its address must match).
    function getHookPermissions() public pure returns (Hooks.Permissions memory) {
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

    /// @notice v4 callback: records the launch time of a song pool the vault initializes.
    /// @param sender The PoolManager's caller: must be the vault.
    /// @param key The pool: native ETH as currency0.
    /// @return The callback's selector.
    function beforeInitialize(address sender, PoolKey calldata key, uint160) external returns (bytes4) {
        _onlyPoolManager();
        if (sender != vault) revert OnlyVault(sender);
        if (!key.currency0.isAddressZero()) revert NotNativeEthPool();
        PoolId poolId = _poolId(key);
        _launchedAt[poolId] = block.timestamp;
        emit PoolLaunched(poolId, block.timestamp);
        return IHooks.beforeInitialize.selector;
    }

    /// @notice v4 callback: refuses every addition of liquidity that the vault did not make (see the
    /// contract notes).
    /// @param sender The PoolManager's caller: must be the vault.
    /// @return The callback's selector.
    function beforeAddLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        view
        returns (bytes4)
    {
        _onlyPoolManager();
        if (sender != vault) revert LiquidityOnlyFromVault(sender);
        return IHooks.beforeAddLiquidity.selector;
    }

    /// @notice The two swap callbacks of Uniswap v4 (IHooks `beforeSwap` and `afterSwap`), only from
    /// the PoolManager; any other call that names no function of the hook reverts.
    /// @dev The swap callbacks are dispatched here, not as Solidity functions, so that a swap pays no
    /// ABI decoding of their arguments (about 550 gas per callback): both read the pool key, the
    /// swap parameters and the delta from their fixed calldata offsets, which the PoolManager's
    /// encoding guarantees, and answer with the ABI words directly.
    ///  - beforeSwap(address sender, PoolKey key, SwapParams params, bytes hookData) returns
    ///    (bytes4, BeforeSwapDelta, uint24): charges the fee of a swap that specifies its ETH amount,
    ///    on the whole amount, before it runs (the fee is the hook's delta in the specified currency;
    ///    no LP fee override).
    ///  - afterSwap(address sender, PoolKey key, SwapParams params, BalanceDelta delta, bytes hookData)
    ///    returns (bytes4, int128): charges the fee of a swap that specifies its token amount, on the
    ///    ETH filled (the hook's delta in the unspecified currency); refuses a partial fill of a swap
    ///    charged in beforeSwap (`ExactEthSwapNotFilled`).
    fallback() external {
        _onlyPoolManager();
        bytes4 selector = msg.sig;
        int256 specified;
        bool ethSpecified;
        assembly ("memory-safe") {
            specified := calldataload(_AMOUNT_SPECIFIED)
            // ETH is the specified currency when buying with exact ETH in (zeroForOne, amount < 0)
            // or selling for exact ETH out (oneForZero, amount > 0).
            ethSpecified := eq(calldataload(_ZERO_FOR_ONE), slt(specified, 0))
        }
        if (selector == IHooks.beforeSwap.selector) {
            int256 fee;
            if (ethSpecified) {
                // Exact ETH in: the fee comes out of the ETH paid. Exact ETH out: it is added on top.
                fee = int256(_charge(specified < 0 ? uint256(-specified) : uint256(specified), specified > 0, true));
                // The pool now swaps amountSpecified + fee of ETH (less ETH in, more ETH out).
                _expectedEthFill = specified + fee;
            }
            // The answer (selector, fee as the specified delta, no LP fee override) over scratch
            // space and the free memory pointer: the call returns at once.
            assembly {
                mstore(0, selector)
                mstore(0x20, shl(128, fee))
                mstore(0x40, 0)
                return(0, 0x60)
            }
        }
        if (selector != IHooks.afterSwap.selector) revert HookNotImplemented();
        int256 ethDelta;
        assembly ("memory-safe") {
            // BalanceDelta: amount0 (ETH) in the high 128 bits.
            ethDelta := sar(128, calldataload(_DELTA))
        }
        uint256 charged;
        if (ethSpecified) {
            // ETH was specified and charged in full by beforeSwap: only a complete fill may stand.
            int256 expected = _expectedEthFill;
            if (ethDelta != expected) revert ExactEthSwapNotFilled(expected, ethDelta);
        } else {
            // ETH is the unspecified currency (exact tokens out, ETH in; exact tokens in, ETH out):
            // charge what was filled. Exact tokens out: the fee is added on top of the ETH the pool takes.
            charged = _charge(ethDelta < 0 ? uint256(-ethDelta) : uint256(ethDelta), specified > 0, false);
        }
        assembly {
            mstore(0, selector)
            mstore(0x20, charged)
            return(0, 0x40)
        }
    }

    /// @dev Charges the fee of the swap being called back for moving `amount` of ETH (below 2^126
    /// wei: v4 deltas are int128): settles the hook's ETH delta by minting ERC-6909 claims on ETH to
    /// the pool's token (`key.currency1`), which moves no ETH during the swap and writes no storage of
    /// the hook; the PoolManager logs the mint (ERC-6909 `Transfer` from 0 to the token, id 0), which
    /// is the fee's only log. Inside the launch fee window the part above the steady rate is minted to
    /// the hook instead (burnt; a second `Transfer`, from 0 to the hook). `onTop`: `amount` is net of
    /// the fee (the fee is added to it), so the fee is `p / (1 - p)` of it, `p` of the gross amount.
    /// `beforeSwap`: charged before the PoolManager's `Swap` log, so the song's mint goes last; after
    /// it, first: either way the song's fee log sits next to its `Swap`, as indexers pair them.
    /// Reads the pool key from calldata, where both callbacks carry it at the same offset.
    function _charge(uint256 amount, bool onTop, bool beforeSwap) private returns (uint256 fee) {
        if (amount > _MAX_ETH_AMOUNT) revert EthAmountTooLarge(amount);
        PoolId poolId;
        address token;
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, _POOL_KEY, 0xa0)
            poolId := keccak256(m, 0xa0)
            token := calldataload(_CURRENCY1)
        }
        uint256 feePips = swapFeePips(_launchedAt[poolId]);
        uint256 denominator = onTop ? _PIPS - feePips : _PIPS;
        // No overflow: amount < 2^126, feePips <= 5e5; and fee <= amount (p <= 50%).
        unchecked {
            fee = (amount * feePips + denominator - 1) / denominator;
        }
        if (fee == 0) return 0;
        if (feePips == BASE_FEE_PIPS) {
            _mintEthClaims(token, fee);
            return fee;
        }
        // Inside the launch fee window: the song gets the steady part, the rest is burnt. The steady
        // part rounds down, so the burnt part is never short of the launch surcharge.
        uint256 credited;
        unchecked {
            credited = (fee * BASE_FEE_PIPS) / feePips;
        }
        if (beforeSwap) _mintEthClaims(address(this), fee - credited);
        if (credited != 0) _mintEthClaims(token, credited);
        if (!beforeSwap) _mintEthClaims(address(this), fee - credited);
    }

    /// @dev `poolManager.mint(to, ETH, amount)`, encoded by hand: the PoolManager is known code, and
    /// the call returns nothing. It settles `amount` of the hook's ETH delta.
    function _mintEthClaims(address to, uint256 amount) private {
        IPoolManager manager = poolManager;
        bytes4 mint = IPoolManager.mint.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, mint)
            mstore(add(m, 0x04), to)
            mstore(add(m, 0x24), _ETH_ID)
            mstore(add(m, 0x44), amount)
            if iszero(call(gas(), manager, 0, m, 0x64, 0, 0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }

    function _onlyPoolManager() private view {
        if (msg.sender != address(poolManager)) revert NotPoolManager();
    }

    /// @dev The v4 PoolId, hashed straight from calldata (a PoolKey is five static words there).
    function _poolId(PoolKey calldata key) private pure returns (PoolId id) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, key, 0xa0)
            id := keccak256(m, 0xa0)
        }
    }
}
