// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {SafeCast} from "@uniswap/v4-core/src/libraries/SafeCast.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Currency, CurrencyLibrary} from "@uniswap/v4-core/src/types/Currency.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {LiquidityAmounts} from "@uniswap/v4-periphery/src/libraries/LiquidityAmounts.sol";
import {ISongNFT} from "./interfaces/ISongNFT.sol";
import {ISongPoolHook} from "./interfaces/ISongPoolHook.sol";
import {SongLaunchFeeSplit} from "./libraries/SongLaunchFeeSplit.sol";
import {SONG_LAUNCH_FEE_DURATION, SONG_POOL_HOOK_FLAGS, SongPoolHook} from "./SongPoolHook.sol";
import {SONG_TOKEN_SUPPLY, SongToken} from "./SongToken.sol";

// Public immutables keep the lowercase getter names of Uniswap v4 and OpenZeppelin (poolManager, ...).
// solhint-disable immutable-vars-naming
/// @title SongVault
/// @notice Launches songs on Uniswap v4 and holds what they earn.
///
/// `launch` (by the song NFT's owner) takes the NFT into custody for good, deploys the song's
/// SongToken, initializes its native-ETH/token pool with the SongPoolHook at the configured start
/// price, locks the pool share of the supply in a single-sided position below that price (token
/// only; buyers move the price into it), and records the rest of the supply (the launcher's
/// allocation) for the launcher's chosen recipient. All in one transaction.
///
/// The allocation vests: nothing of it exists until its cliff ends (`launchedAt +
/// ALLOCATION_CLIFF`, at least 7 days), then it is released linearly over
/// `ALLOCATION_VESTING_PERIOD` (at least 30 days) counted from the cliff's end, both fixed at
/// deployment. `claimAllocation` mints what has vested and not been claimed to the recipient named
/// at launch, as often as anyone likes. So the creator cannot sell its allocation into the pool
/// (taking the ETH buyers paid in) before the cliff, and after it only at the vesting rate; and,
/// since the cliff outlasts the launch fee window by far, nobody holds a song token inside the
/// window without having bought it in the song pool, paying the launch fee: the allocation cannot
/// be parked as a fee-free range order in another pool of the token (anyone may create a hookless
/// pool of any token; the hook's fee binds only its own pool) while early buyers pay up to 50%.
/// What stays possible, by design: a buyer who paid the launch fee on entry may exit through
/// another pool of the token, where this hook charges nothing (docs/launch.md).
/// The linear release starts at the cliff's end, not at launch, so the cliff releases no lump: a
/// schedule counted from launch would free `cliff / (cliff + period)` of the allocation in the
/// first second after the cliff, a sale everyone could see coming.
///
/// The vault owns every launch position and has no code path that removes liquidity: it is locked
/// forever. The pool's LP fees on that position and the hook's ETH swap fees are collected per
/// song by `collectFees` (anyone may call it; the hook's fees are PoolManager ERC-6909 claims held in
/// the name of the song's token, which hands them to the vault to redeem) and split between the song's payout recipient (its creator, the NFT's
/// `creatorOf`, until the role is handed on) and the platform (the vault's owner): the platform gets
/// `amount * platformShareBps / 10_000` rounded down and the creator the remainder, so the two
/// always add up to the amount exactly. Each party pulls its share with `claim` (or anyone pushes
/// it to the party with `claimFor`). The creator share belongs to the song's payout recipient: the
/// creator at launch, a role its holder can hand to another address (`setPayoutRecipient`).
/// Fees credited in song tokens (the LP fees of sells) stay in the vault through the launch fee
/// window, like the allocation: `claim` pays them from `launchedAt + LAUNCH_FEE_DURATION` on (ETH
/// credits are paid at any time), so fees earned in the window put no song token in anyone's hands
/// before it ends either.
///
/// The hook's fees are counted as the ERC-6909 ETH claims the song's token holds: claims anyone
/// transfers to a song token (a donation) are indistinguishable from fees and are collected, split
/// and paid as that song's hook fees (`accruedSwapFees`, `FeesCollected.swapFeesEth`). The vault
/// itself holds no claims between transactions (it burns what it receives in the same collection),
/// so claims anyone transfers to the vault are no song's fees: the owner sends them on with
/// `recoverClaims`, which can never touch a song's fees.
///
/// The vault deploys its SongPoolHook itself, in its constructor, with CREATE2 from its own address
/// and a salt it mines there for the hook's v4 flag bits; the hook records its deployer as its
/// vault. The hook's address therefore follows from the vault's address: nobody else can deploy
/// anything there first, and the vault can only ever use a genuine SongPoolHook bound to it.
///
/// The launch fee binds everyone: the part of a swap fee above the steady 1% charged inside the
/// launch fee window never reaches this vault (the hook burns it, see {SongPoolHook}), so a
/// creator buying its own coin in the launch block gets back only its share of the steady fee,
/// the share it gets on every trade of the coin.
///
/// Admin power: the owner (two-step transfer, no renounce) is the platform fee party, and sends on
/// ERC-6909 claims transferred to the vault by mistake (`recoverClaims`). Nothing else.
/// Per-song roles: the payout recipient hands its role on (`setPayoutRecipient`); the creator takes
/// back its NFT if it reached the vault outside `launch` (`recoverSong`).
contract SongVault is IUnlockCallback, Ownable2Step, ReentrancyGuardTransient {
    using PoolIdLibrary for PoolKey;
    using SafeCast for uint256;
    using SafeCast for int128;

    /// @notice Basis-point denominator of shares.
    uint256 public constant BPS = SongLaunchFeeSplit.BPS;
    /// @notice Largest part of the supply a launcher may take (10%); the rest goes to the pool.
    uint256 public constant MAX_ALLOCATION_BPS = 1_000;
    /// @notice Seconds after launch the launch fee takes to decay to its floor (the hook's window):
    /// token fee credits are paid from its end on.
    uint256 public constant LAUNCH_FEE_DURATION = SONG_LAUNCH_FEE_DURATION;
    /// @notice Shortest allowed `ALLOCATION_CLIFF`: 7 days.
    uint256 public constant MIN_ALLOCATION_CLIFF = 7 days;
    /// @notice Shortest allowed `ALLOCATION_VESTING_PERIOD`: 30 days.
    uint256 public constant MIN_ALLOCATION_VESTING_PERIOD = 30 days;
    /// @notice Longest allowed cliff, and longest allowed vesting period: 3,650 days. It keeps every
    /// vesting time within 64 bits and refuses a duration given in milliseconds by mistake.
    uint256 public constant MAX_ALLOCATION_SCHEDULE = 3_650 days;
    /// @dev ERC-6909 id of native ETH claims in the PoolManager.
    uint256 private constant _ETH_CLAIM_ID = 0;

    /// @notice What the launcher chooses.
    /// @param allocationBps Share of the supply held for `allocationRecipient` (at most 10%).
    /// @param allocationRecipient Receiver of the allocation (and of the pool share's rounding dust),
    /// which vests after the cliff (`allocationOf`).
    struct LaunchParams {
        uint16 allocationBps;
        address allocationRecipient;
    }

    /// @notice Pool shape shared by every song, fixed at deployment.
    /// @param lpFee The pool's static LP fee in pips (10_000 = 1%).
    /// @param tickSpacing The pool's tick spacing.
    /// @param startTick Initial tick (tokens per ETH = 1.0001^startTick); the position's upper tick.
    /// @param tickLower The position's lower tick: the highest token price (fewest tokens per ETH) it covers.
    /// @param platformShareBps Platform share of every fee, in basis points.
    /// @param allocationCliff Seconds after launch before any of an allocation vests (at least 7
    /// days, at most 3,650).
    /// @param allocationVestingPeriod Seconds over which an allocation then vests linearly (at least
    /// 30 days, at most 3,650).
    struct LaunchConfig {
        uint24 lpFee;
        int24 tickSpacing;
        int24 startTick;
        int24 tickLower;
        uint16 platformShareBps;
        uint32 allocationCliff;
        uint32 allocationVestingPeriod;
    }

    /// @notice A launched song.
    /// @param payoutRecipient Receives the creator share of the song's fees: the creator
    /// (`SongNFT.creatorOf`) at launch, then whoever the role was handed to.
    /// @param launchedAt The launch time.
    struct Song {
        address payoutRecipient;
        uint40 launchedAt;
    }

    /// @notice A launcher's allocation, kept for good once recorded (what was claimed of it is the
    /// song token's supply beyond the pool share: the token mints nothing else).
    /// @param recipient Receiver of the allocation (zero when there is none).
    /// @param amount Tokens the recipient gets in all, as they vest.
    struct Allocation {
        address recipient;
        uint96 amount;
    }

    /// @notice Fees credited to one party of one song and not yet claimed.
    struct FeeBalance {
        uint128 eth;
        uint128 token;
    }

    enum CallbackAction {
        Launch,
        Collect
    }

    /// @notice The Uniswap v4 PoolManager.
    IPoolManager public immutable poolManager;
    /// @notice The song NFT collection.
    ISongNFT public immutable songNFT;
    /// @notice The SongToken implementation every song token clones.
    address public immutable tokenImplementation;
    /// @notice The hook of every song pool.
    ISongPoolHook public immutable hook;
    /// @notice The pools' static LP fee in pips.
    uint24 public immutable lpFee;
    /// @notice The pools' tick spacing.
    int24 public immutable tickSpacing;
    /// @notice Lower tick of every launch position.
    int24 public immutable tickLower;
    /// @notice Upper tick of every launch position, and the tick pools start at.
    int24 public immutable tickUpper;
    /// @notice Platform share of every fee, in basis points.
    uint16 public immutable platformShareBps;
    /// @notice Seconds after launch before any of an allocation vests (its cliff).
    uint256 public immutable ALLOCATION_CLIFF;
    /// @notice Seconds over which an allocation vests linearly, from the end of its cliff.
    uint256 public immutable ALLOCATION_VESTING_PERIOD;
    uint160 private immutable _SQRT_PRICE_LOWER;
    uint160 private immutable _SQRT_PRICE_UPPER;

    mapping(uint256 songId => Song) private _songs;
    mapping(uint256 songId => uint256) private _swapFeesCollected;
    mapping(uint256 songId => FeeBalance) private _creatorFees;
    mapping(uint256 songId => FeeBalance) private _platformFees;
    mapping(uint256 songId => Allocation) private _allocations;

    /// @notice `songId` was launched: its token, pool and locked position exist.
    /// @param songId The SongNFT token id, now held by the vault for good.
    /// @param token The song's SongToken clone.
    /// @param poolId The native-ETH/token pool with the SongPoolHook.
    /// @param creator The song's creator (its minter), the first payout recipient.
    /// @param launcher The NFT owner that called `launch`.
    /// @param allocationRecipient Receiver of the allocation.
    /// @param allocation Tokens vesting for the allocation recipient (`AllocationVesting`).
    /// @param poolSupply Tokens placed in the locked single-sided position.
    /// @param liquidity Liquidity of that position.
    event SongLaunched(
        uint256 indexed songId,
        address indexed token,
        PoolId indexed poolId,
        address creator,
        address launcher,
        address allocationRecipient,
        uint256 allocation,
        uint256 poolSupply,
        uint128 liquidity
    );
    /// @notice Fees of `songId` were collected and credited (amounts in wei / token units).
    /// @param songId The SongNFT token id.
    /// @param lpFeesEth LP fees collected in ETH.
    /// @param lpFeesToken LP fees collected in the song's token.
    /// @param swapFeesEth Hook swap fees moved from the hook, in ETH.
    /// @param creatorEth ETH credited to the payout recipient.
    /// @param creatorToken Tokens credited to the payout recipient.
    /// @param platformEth ETH credited to the platform.
    /// @param platformToken Tokens credited to the platform.
    event FeesCollected(
        uint256 indexed songId,
        uint256 lpFeesEth,
        uint256 lpFeesToken,
        uint256 swapFeesEth,
        uint256 creatorEth,
        uint256 creatorToken,
        uint256 platformEth,
        uint256 platformToken
    );
    /// @notice `songId`'s allocation of `total` tokens vests for `recipient`: none before
    /// `cliffEnd`, linearly from `cliffEnd` to `vestingEnd`, all of it from `vestingEnd`.
    /// @param songId The SongNFT token id.
    /// @param recipient The allocation recipient named at launch.
    /// @param total Tokens it gets in all.
    /// @param cliffEnd `launchedAt + ALLOCATION_CLIFF`.
    /// @param vestingEnd `cliffEnd + ALLOCATION_VESTING_PERIOD`.
    event AllocationVesting(
        uint256 indexed songId, address indexed recipient, uint256 total, uint64 cliffEnd, uint64 vestingEnd
    );
    /// @notice Part of `songId`'s allocation was released: `amount` vested tokens minted to `recipient`.
    /// @param songId The SongNFT token id.
    /// @param recipient The allocation recipient named at launch.
    /// @param amount Tokens minted to it.
    /// @param remaining Tokens of the allocation not claimed yet (vested or not).
    event AllocationClaimed(uint256 indexed songId, address indexed recipient, uint256 amount, uint256 remaining);
    /// @notice `account` claimed its fees of `songId` to `to`.
    /// @param songId The SongNFT token id.
    /// @param account The party whose balance was paid (payout recipient or platform).
    /// @param to Where the fees were sent.
    /// @param eth ETH paid.
    /// @param token Song tokens paid.
    event FeesClaimed(uint256 indexed songId, address indexed account, address to, uint256 eth, uint256 token);
    /// @notice The owner sent on ERC-6909 claims that were transferred to the vault (no song's fees).
    /// @param id The PoolManager ERC-6909 id (the currency's address; 0 for ETH).
    /// @param to Where the claims went.
    /// @param amount Claims moved: the vault's whole balance of `id`.
    event ClaimsRecovered(uint256 indexed id, address indexed to, uint256 amount);
    /// @notice The creator share of `songId` now goes to `newRecipient`.
    /// @param songId The SongNFT token id.
    /// @param previousRecipient The recipient until now.
    /// @param newRecipient The recipient from now on.
    event PayoutRecipientUpdated(uint256 indexed songId, address indexed previousRecipient, address indexed newRecipient);
    /// @notice The creator took back `songId`, which had reached the vault outside `launch`.
    /// @param songId The SongNFT token id.
    /// @param creator The song's creator, who asked for it back.
    /// @param to Where the NFT was sent.
    event SongRecovered(uint256 indexed songId, address indexed creator, address indexed to);

    /// @notice The caller does not own the song NFT.
    error NotSongOwner(uint256 songId, address caller);
    /// @notice The caller is not the song's creator.
    error NotSongCreator(uint256 songId, address caller);
    /// @notice The caller is not the song's payout recipient (or the song was not launched).
    error NotPayoutRecipient(uint256 songId, address caller);
    /// @notice A payout recipient must be able to claim: not zero, not the vault.
    error InvalidPayoutRecipient(address recipient);
    /// @notice The song was launched: the vault keeps its NFT for good.
    error AlreadyLaunched(uint256 songId);
    /// @notice The allocation exceeds MAX_ALLOCATION_BPS.
    error AllocationTooLarge(uint256 allocationBps);
    /// @notice A required address is zero.
    error ZeroAddress();
    /// @notice The song has not been launched.
    error NotLaunched(uint256 songId);
    /// @notice The caller has nothing to claim for the songs given.
    error NothingToClaim();
    /// @notice Sending claimed ETH failed; the fees stay credited.
    error EthTransferFailed(address to, uint256 amount);
    /// @notice Only the PoolManager calls back or sends ETH.
    error NotPoolManager();
    /// @notice The launch configuration is unusable.
    error InvalidLaunchConfig();
    /// @notice The allocation cliff or vesting period is out of its bounds (cliff 7 to 3,650 days,
    /// period 30 to 3,650 days).
    error InvalidAllocationVesting(uint256 cliff, uint256 period);
    /// @notice The token implementation is not a SongToken of this SongNFT.
    error WrongTokenImplementation(address implementation);
    /// @notice Nothing of the song's allocation vests until after `cliffEnd`.
    error AllocationLocked(uint256 songId, uint256 cliffEnd);
    /// @notice The song was launched without an allocation.
    error NoAllocation(uint256 songId);
    /// @notice Everything of the song's allocation vested so far was claimed already (`claimed` of
    /// `total`); more vests every second until `vestingEnd` (`allocationOf`).
    error NothingVested(uint256 songId, uint256 claimed, uint256 total);
    /// @notice The vault holds no ERC-6909 claims of `id` to send on.
    error NoClaimsHeld(uint256 id);
    /// @notice Ownership cannot be renounced: platform fees would be stranded.
    error RenounceDisabled();

    /// @notice Creates the vault and its SongPoolHook.
    /// @dev Deploys the SongPoolHook (see {_deployHook}): its address follows from this vault's.
    /// @param poolManager_ The Uniswap v4 PoolManager.
    /// @param songNFT_ The song NFT collection.
    /// @param tokenImplementation_ A SongToken implementation made for `songNFT_`.
    /// @param config The pool shape, the platform share and the allocations' vesting schedule.
    /// @param platform The owner: the platform fee party.
    constructor(
        IPoolManager poolManager_,
        ISongNFT songNFT_,
        address tokenImplementation_,
        LaunchConfig memory config,
        address platform
    ) Ownable(platform) {
        if (address(poolManager_) == address(0) || address(songNFT_) == address(0)) revert ZeroAddress();
        if (
            tokenImplementation_.code.length == 0
                || address(SongToken(tokenImplementation_).songNFT()) != address(songNFT_)
        ) revert WrongTokenImplementation(tokenImplementation_);
        if (
            config.tickSpacing < TickMath.MIN_TICK_SPACING || config.tickSpacing > TickMath.MAX_TICK_SPACING
                || config.startTick % config.tickSpacing != 0 || config.tickLower % config.tickSpacing != 0
                || config.tickLower >= config.startTick || config.tickLower < TickMath.minUsableTick(config.tickSpacing)
                || config.startTick > TickMath.maxUsableTick(config.tickSpacing) || config.lpFee > LPFeeLibrary.MAX_LP_FEE
                || config.platformShareBps > SongLaunchFeeSplit.BPS
        ) revert InvalidLaunchConfig();
        if (
            config.allocationCliff < MIN_ALLOCATION_CLIFF || config.allocationCliff > MAX_ALLOCATION_SCHEDULE
                || config.allocationVestingPeriod < MIN_ALLOCATION_VESTING_PERIOD
                || config.allocationVestingPeriod > MAX_ALLOCATION_SCHEDULE
        ) revert InvalidAllocationVesting(config.allocationCliff, config.allocationVestingPeriod);
        poolManager = poolManager_;
        songNFT = songNFT_;
        tokenImplementation = tokenImplementation_;
        hook = _deployHook(poolManager_);
        lpFee = config.lpFee;
        tickSpacing = config.tickSpacing;
        tickLower = config.tickLower;
        tickUpper = config.startTick;
        platformShareBps = config.platformShareBps;
        ALLOCATION_CLIFF = config.allocationCliff;
        ALLOCATION_VESTING_PERIOD = config.allocationVestingPeriod;
        _SQRT_PRICE_LOWER = TickMath.getSqrtPriceAtTick(config.tickLower);
        _SQRT_PRICE_UPPER = TickMath.getSqrtPriceAtTick(config.startTick);
    }

    /// @notice ETH arrives only from the PoolManager (fee collection).
    receive() external payable {
        if (msg.sender != address(poolManager)) revert NotPoolManager();
    }

    /// @notice Launches `songId`: NFT into custody, token, pool, locked liquidity; the allocation is
    /// recorded for its recipient and vests after the cliff (`claimAllocation`).
    /// @dev The caller must own the NFT and have approved the vault for it.
    /// @param songId The SongNFT token id.
    /// @param params The allocation and its recipient.
    /// @return token The song's SongToken.
    function launch(uint256 songId, LaunchParams calldata params) external nonReentrant returns (address token) {
        if (songNFT.ownerOf(songId) != msg.sender) revert NotSongOwner(songId, msg.sender);
        if (params.allocationBps > MAX_ALLOCATION_BPS) revert AllocationTooLarge(params.allocationBps);
        if (params.allocationRecipient == address(0)) revert ZeroAddress();
        address creator = songNFT.creatorOf(songId);
        _songs[songId] = Song({payoutRecipient: creator, launchedAt: uint40(block.timestamp)});

        songNFT.transferFrom(msg.sender, address(this), songId);
        token = Clones.cloneDeterministicWithImmutableArgs(tokenImplementation, abi.encode(songId), bytes32(songId));
        PoolKey memory key = _poolKey(token);
        poolManager.initialize(key, _SQRT_PRICE_UPPER);

        uint256 poolShare = SONG_TOKEN_SUPPLY - (SONG_TOKEN_SUPPLY * params.allocationBps) / BPS;
        uint128 liquidity = LiquidityAmounts.getLiquidityForAmount1(_SQRT_PRICE_LOWER, _SQRT_PRICE_UPPER, poolShare);
        uint256 poolSupply = abi.decode(
            poolManager.unlock(abi.encode(CallbackAction.Launch, key, liquidity)), (uint256)
        );
        uint256 allocation = SONG_TOKEN_SUPPLY - poolSupply;
        // At most 10% of the supply plus rounding dust (below 1.1e26): fits 96 bits (2^96 > 7.9e28).
        if (allocation != 0) {
            _allocations[songId] = Allocation({recipient: params.allocationRecipient, amount: uint96(allocation)});
            (uint256 cliffEnd, uint256 vestingEnd) = _vestingTimes(block.timestamp);
            emit AllocationVesting(songId, params.allocationRecipient, allocation, uint64(cliffEnd), uint64(vestingEnd));
        }
        emit SongLaunched(
            songId,
            token,
            key.toId(),
            creator,
            msg.sender,
            params.allocationRecipient,
            allocation,
            poolSupply,
            liquidity
        );
    }

    /// @notice Mints the part of `songId`'s allocation that has vested and was not claimed yet to the
    /// recipient named at launch. Nothing vests until the cliff ends (`launchedAt +
    /// ALLOCATION_CLIFF`); then `total * elapsed / ALLOCATION_VESTING_PERIOD` has vested, `elapsed`
    /// counted from the cliff's end, and all of it from `vestingEnd` (`allocationOf`). Callable as
    /// often as anyone likes; anyone may call it (a recipient that cannot make calls still gets its
    /// tokens), and the tokens go to the recipient only.
    /// @param songId A launched song.
    /// @return recipient Who received the tokens.
    /// @return amount Tokens minted to it.
    function claimAllocation(uint256 songId) external nonReentrant returns (address recipient, uint256 amount) {
        uint256 launchedAt = _songs[songId].launchedAt;
        if (launchedAt == 0) revert NotLaunched(songId);
        Allocation memory held = _allocations[songId];
        recipient = held.recipient;
        if (recipient == address(0)) revert NoAllocation(songId);
        (uint256 cliffEnd,) = _vestingTimes(launchedAt);
        if (block.timestamp <= cliffEnd) revert AllocationLocked(songId, cliffEnd);
        SongToken token = SongToken(tokenOf(songId));
        uint256 claimed = _claimedAllocation(token, held.amount);
        uint256 vested = _vestedAllocation(held.amount, cliffEnd);
        if (vested == claimed) revert NothingVested(songId, claimed, held.amount);
        amount = vested - claimed;
        emit AllocationClaimed(songId, recipient, amount, held.amount - vested);
        // The vault's own clone: mints within its supply cap, and the vault keeps no claim state.
        token.mintAllocation(recipient, amount);
    }

    /// @notice Collects the LP fees of `songId`'s locked position and the hook's swap fees not yet
    /// collected (the ETH claims held in the song token's name), and credits them to the creator and
    /// the platform. Anyone may call it.
    /// @param songId A launched song.
    function collectFees(uint256 songId) external nonReentrant {
        if (_songs[songId].launchedAt == 0) revert NotLaunched(songId);
        poolManager.unlock(abi.encode(CallbackAction.Collect, songId));
    }

    /// @notice Pays the caller's fees of `songIds` to `to`: the creator share of the songs whose
    /// payout recipient it is, and, for the owner, the platform share. Tokens go song by song, ETH
    /// in one transfer. A song's token credits are paid only once its launch fee window is over
    /// (from `launchedAt + LAUNCH_FEE_DURATION`); before that they stay credited and only the ETH
    /// is paid (`claimableFeesOf` says what a claim pays now).
    /// @dev A recipient that rejects ETH only fails its own claim; the fees stay credited.
    /// @param songIds Songs to claim (duplicates are harmless: the second pass finds nothing).
    /// @param to Receiver of the ETH and tokens.
    /// @return ethPaid Total ETH sent.
    function claim(uint256[] calldata songIds, address payable to) external nonReentrant returns (uint256 ethPaid) {
        if (to == address(0)) revert ZeroAddress();
        return _claim(msg.sender, songIds, to);
    }

    /// @notice Pays `account`'s fees of `songIds` to `account` itself, exactly as `account` calling
    /// `claim(songIds, account)` would. Anyone may call it: it lets a payout recipient that cannot
    /// make calls (a split contract, for one) receive its share.
    /// @param songIds Songs to claim.
    /// @param account A payout recipient or the owner.
    /// @return ethPaid Total ETH sent.
    function claimFor(uint256[] calldata songIds, address payable account)
        external
        nonReentrant
        returns (uint256 ethPaid)
    {
        return _claim(account, songIds, account);
    }

    /// @notice Hands the creator share of `songId` (credited and future) to `newRecipient`, for
    /// instance a split contract or a multisig. Only the current payout recipient may call it; the
    /// role moves with it (the new recipient is the one who can move it on).
    /// @param songId A launched song.
    /// @param newRecipient The new payout recipient: not zero, not the vault.
    function setPayoutRecipient(uint256 songId, address newRecipient) external {
        Song storage song = _songs[songId];
        address previous = song.payoutRecipient;
        if (msg.sender != previous) revert NotPayoutRecipient(songId, msg.sender);
        if (newRecipient == address(0) || newRecipient == address(this)) revert InvalidPayoutRecipient(newRecipient);
        song.payoutRecipient = newRecipient;
        emit PayoutRecipientUpdated(songId, previous, newRecipient);
    }

    /// @notice Sends on the PoolManager ERC-6909 claims of `id` that were transferred to the vault:
    /// all of them, to `to`, as claims. Only the owner may call it. The vault holds claims between
    /// transactions only when someone transferred them to it (fee collection burns in the same
    /// transaction every claim it receives, and the hook's fees are held by the song tokens), so
    /// this never moves a song's fees.
    /// @param id The ERC-6909 id (the currency's address as a number; 0 for ETH).
    /// @param to Receiver of the claims (not zero).
    /// @return amount Claims sent.
    function recoverClaims(uint256 id, address to) external onlyOwner nonReentrant returns (uint256 amount) {
        if (to == address(0)) revert ZeroAddress();
        amount = poolManager.balanceOf(address(this), id);
        if (amount == 0) revert NoClaimsHeld(id);
        emit ClaimsRecovered(id, to, amount);
        poolManager.transfer(to, id, amount);
    }

    /// @notice Sends a song NFT that reached the vault without being launched (a plain
    /// `transferFrom`, which calls no receiver and so cannot be refused) to `to`. Only the song's
    /// creator may call it: `SongNFT.creatorOf` is the one owner SongNFT keeps on record (the
    /// sender of a plain transfer is not). A launched song's NFT stays in the vault for good.
    /// @param songId A song NFT held by the vault and never launched.
    /// @param to Receiver of the NFT.
    function recoverSong(uint256 songId, address to) external nonReentrant {
        if (_songs[songId].launchedAt != 0) revert AlreadyLaunched(songId);
        if (songNFT.creatorOf(songId) != msg.sender) revert NotSongCreator(songId, msg.sender);
        if (to == address(0)) revert ZeroAddress();
        emit SongRecovered(songId, msg.sender, to);
        // Reverts (ERC721IncorrectOwner) unless the vault holds the NFT.
        songNFT.transferFrom(address(this), to, songId);
    }

    /// @notice Disabled: the platform fee party must always exist.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceDisabled();
    }

    /// @notice Handles the vault's PoolManager sessions (launch and fee collection).
    /// @param data The encoded action.
    /// @return The launch's pool supply, or nothing.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert NotPoolManager();
        if (abi.decode(data[:32], (CallbackAction)) == CallbackAction.Launch) {
            (, PoolKey memory key, uint128 liquidity) = abi.decode(data, (CallbackAction, PoolKey, uint128));
            return abi.encode(_seedLiquidity(key, liquidity));
        }
        (, uint256 songId) = abi.decode(data, (CallbackAction, uint256));
        _collect(songId);
        return "";
    }

    /// @notice The SongToken address of `songId` (launched or not yet).
    /// @param songId The SongNFT token id.
    function tokenOf(uint256 songId) public view returns (address) {
        return Clones.predictDeterministicAddressWithImmutableArgs(
            tokenImplementation, abi.encode(songId), bytes32(songId), address(this)
        );
    }

    /// @notice The pool key of `songId`'s pool.
    /// @param songId The SongNFT token id.
    function poolKeyOf(uint256 songId) public view returns (PoolKey memory) {
        return _poolKey(tokenOf(songId));
    }

    /// @notice `songId`'s payout recipient (creator fee party) and launch time; zeros if not launched.
    /// @param songId The SongNFT token id.
    function songOf(uint256 songId) external view returns (Song memory) {
        return _songs[songId];
    }

    /// @notice `songId`'s allocation and its vesting, now; all zeros when there is none (not
    /// launched, or launched without one). What `claimAllocation` pays now is `vested - claimed`.
    /// @param songId The SongNFT token id.
    /// @return recipient Receiver named at launch.
    /// @return total Tokens it gets in all.
    /// @return claimed Tokens minted to it so far.
    /// @return vested Tokens vested so far, claimed ones included.
    /// @return cliffEnd Until this timestamp nothing vests.
    /// @return vestingEnd From this timestamp everything has vested.
    function allocationOf(uint256 songId)
        external
        view
        returns (address recipient, uint256 total, uint256 claimed, uint256 vested, uint64 cliffEnd, uint64 vestingEnd)
    {
        Allocation memory held = _allocations[songId];
        if (held.recipient == address(0)) return (address(0), 0, 0, 0, 0, 0);
        (uint256 cliff, uint256 end) = _vestingTimes(_songs[songId].launchedAt);
        return (
            held.recipient,
            held.amount,
            _claimedAllocation(SongToken(tokenOf(songId)), held.amount),
            _vestedAllocation(held.amount, cliff),
            uint64(cliff),
            uint64(end)
        );
    }

    /// @notice Fees credited and not yet claimed for `songId`.
    /// @param songId The SongNFT token id.
    /// @return creator The creator's balance.
    /// @return platform The platform's balance.
    function feesOf(uint256 songId) external view returns (FeeBalance memory creator, FeeBalance memory platform) {
        return (_creatorFees[songId], _platformFees[songId]);
    }

    /// @notice What `claim` would pay each party of `songId` now: the credited ETH, and the credited
    /// tokens once the launch fee window is over (zero tokens before it).
    /// @param songId The SongNFT token id.
    /// @return creator The payout recipient's claimable balance.
    /// @return platform The platform's claimable balance.
    function claimableFeesOf(uint256 songId) external view returns (FeeBalance memory creator, FeeBalance memory platform) {
        creator = _creatorFees[songId];
        platform = _platformFees[songId];
        if (!_feeTokensReleased(_songs[songId].launchedAt)) {
            creator.token = 0;
            platform.token = 0;
        }
    }

    /// @notice Hook swap fees of `songId` already collected into the creator's and the platform's
    /// balances, in wei.
    /// @param songId The SongNFT token id.
    function swapFeesCollected(uint256 songId) external view returns (uint256) {
        return _swapFeesCollected[songId];
    }

    /// @notice All ETH swap fees of `songId` since launch, in wei: those collected plus the
    /// PoolManager ERC-6909 claims on ETH still held in the name of the song's token (where the hook
    /// mints them, and from where `collectFees` moves them). It counts claims held, not the hook's
    /// mints: ETH claims anyone transfers to the song's token are counted (and collected and split)
    /// as the song's hook fees, since nothing tells them apart from the hook's own (counting the
    /// mints would cost the hook a storage write per swap).
    /// @param songId The SongNFT token id.
    function accruedSwapFees(uint256 songId) external view returns (uint256) {
        return _swapFeesCollected[songId] + poolManager.balanceOf(tokenOf(songId), _ETH_CLAIM_ID);
    }

    /// @notice Splits `amount` into the platform share (rounded down) and the creator remainder.
    /// @param amount The amount to split.
    /// @return creatorShare The payout recipient's part: the remainder.
    /// @return platformShare The platform's part, rounded down.
    function splitFee(uint256 amount) public view returns (uint256 creatorShare, uint256 platformShare) {
        return SongLaunchFeeSplit.split(amount, platformShareBps);
    }

    /// @dev Pays `account`'s creator and platform shares of `songIds` to `to`.
    function _claim(address account, uint256[] calldata songIds, address payable to) private returns (uint256 ethPaid) {
        bool isPlatform = account == owner();
        bool claimedAny;
        for (uint256 i = 0; i < songIds.length; ++i) {
            uint256 songId = songIds[i];
            Song memory song = _songs[songId];
            bool withTokens = _feeTokensReleased(song.launchedAt);
            FeeBalance memory owed;
            if (account == song.payoutRecipient) owed = _takeFees(_creatorFees[songId], withTokens);
            if (isPlatform) {
                FeeBalance memory platformOwed = _takeFees(_platformFees[songId], withTokens);
                owed.eth += platformOwed.eth;
                owed.token += platformOwed.token;
            }
            if (owed.eth == 0 && owed.token == 0) continue;
            claimedAny = true;
            ethPaid += owed.eth;
            emit FeesClaimed(songId, account, to, owed.eth, owed.token);
            if (owed.token != 0) {
                // The vault's own SongToken clone: a plain ERC-20 that reverts on failure.
                SongToken(tokenOf(songId)).transfer(to, owed.token);
            }
        }
        if (!claimedAny) revert NothingToClaim();
        if (ethPaid != 0) {
            // solhint-disable-next-line avoid-low-level-calls
            (bool sent,) = to.call{value: ethPaid}("");
            if (!sent) revert EthTransferFailed(to, ethPaid);
        }
    }

    /// @dev Empties `balance` of what a claim pays now (its ETH, and its tokens when `withTokens`)
    /// and returns it.
    function _takeFees(FeeBalance storage balance, bool withTokens) private returns (FeeBalance memory taken) {
        if (withTokens) {
            taken = balance;
            delete balance.eth;
            delete balance.token;
        } else {
            taken.eth = balance.eth;
            balance.eth = 0;
        }
    }

    /// @dev The end of the cliff and of the vesting of an allocation launched at `launchedAt`. Fit 64
    /// bits: a block timestamp plus at most 2 * 3,650 days.
    function _vestingTimes(uint256 launchedAt) private view returns (uint256 cliffEnd, uint256 vestingEnd) {
        cliffEnd = launchedAt + ALLOCATION_CLIFF;
        vestingEnd = cliffEnd + ALLOCATION_VESTING_PERIOD;
    }

    /// @dev Tokens of an allocation of `total` vested now, given its cliff's end: none until then,
    /// then linearly over ALLOCATION_VESTING_PERIOD (rounded down), all of it at the end.
    function _vestedAllocation(uint256 total, uint256 cliffEnd) private view returns (uint256) {
        if (block.timestamp <= cliffEnd) return 0;
        uint256 elapsed = block.timestamp - cliffEnd;
        if (elapsed >= ALLOCATION_VESTING_PERIOD) return total;
        return (total * elapsed) / ALLOCATION_VESTING_PERIOD;
    }

    /// @dev Tokens of an allocation of `total` claimed so far: the song token's supply beyond its pool
    /// share (`SONG_TOKEN_SUPPLY - total`, minted at launch), since the token mints nothing else
    /// (`SongToken.mintAllocation` only on claims). Reading it from the token spares the claim a
    /// storage write (about 20,000 gas on a first claim).
    function _claimedAllocation(SongToken token, uint256 total) private view returns (uint256) {
        return token.totalSupply() + total - SONG_TOKEN_SUPPLY;
    }

    /// @dev Whether a song launched at `launchedAt` is past its launch fee window (a song never
    /// launched, `launchedAt` 0, has no credits).
    function _feeTokensReleased(uint256 launchedAt) private view returns (bool) {
        return block.timestamp >= launchedAt + LAUNCH_FEE_DURATION;
    }

    /// @dev Deploys the SongPoolHook with CREATE2 from this vault at the first salt (counting from 0)
    /// whose address carries exactly the hook's flag bits in its low 14 bits (one address in
    /// 16,384 does: 16,384 tries on average, about 130 gas each). The hook's constructor binds it
    /// to msg.sender, this vault.
    function _deployHook(IPoolManager poolManager_) private returns (ISongPoolHook) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SongPoolHook).creationCode, abi.encode(poolManager_)));
        uint256 flags = SONG_POOL_HOOK_FLAGS;
        bytes32 salt;
        assembly ("memory-safe") {
            // Scratch past the free memory pointer: 0xff ++ this ++ salt ++ init code hash (85 bytes
            // from m + 11), the CREATE2 address preimage.
            let m := mload(0x40)
            mstore(m, or(shl(160, 0xff), address()))
            mstore(add(m, 0x40), initCodeHash)
            for {} 1 { salt := add(salt, 1) } {
                mstore(add(m, 0x20), salt)
                if eq(and(keccak256(add(m, 11), 85), 0x3fff), flags) { break }
            }
        }
        return new SongPoolHook{salt: salt}(poolManager_);
    }

    function _seedLiquidity(PoolKey memory key, uint128 liquidity) private returns (uint256 poolSupply) {
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: tickLower,
                tickUpper: tickUpper,
                liquidityDelta: int256(uint256(liquidity)),
                salt: bytes32(0)
            }),
            ""
        );
        // Single-sided below the price: the position owes token only, rounded up by the pool.
        poolSupply = uint256(-int256(delta.amount1()));
        poolManager.sync(key.currency1);
        SongToken(Currency.unwrap(key.currency1)).initialize(address(poolManager), poolSupply);
        poolManager.settle();
    }

    function _collect(uint256 songId) private {
        PoolKey memory key = _poolKey(tokenOf(songId));
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key, ModifyLiquidityParams({tickLower: tickLower, tickUpper: tickUpper, liquidityDelta: 0, salt: bytes32(0)}), ""
        );
        uint256 lpFeesEth = delta.amount0().toUint128();
        uint256 lpFeesToken = delta.amount1().toUint128();
        uint256 swapFeesEth = _redeemSwapFeeClaims(songId, Currency.unwrap(key.currency1));
        uint256 eth = lpFeesEth + swapFeesEth;
        if (eth != 0) poolManager.take(CurrencyLibrary.ADDRESS_ZERO, address(this), eth);
        if (lpFeesToken != 0) poolManager.take(key.currency1, address(this), lpFeesToken);

        (uint256 creatorEth, uint256 platformEth) = splitFee(eth);
        (uint256 creatorToken, uint256 platformToken) = splitFee(lpFeesToken);
        FeeBalance storage creatorFees = _creatorFees[songId];
        creatorFees.eth += creatorEth.toUint128();
        creatorFees.token += creatorToken.toUint128();
        FeeBalance storage platformFees = _platformFees[songId];
        platformFees.eth += platformEth.toUint128();
        platformFees.token += platformToken.toUint128();
        emit FeesCollected(
            songId, lpFeesEth, lpFeesToken, swapFeesEth, creatorEth, creatorToken, platformEth, platformToken
        );
    }

    /// @dev Redeems the hook's swap fees of `songId` not yet collected: the hook mints them as ETH
    /// claims in the name of the song's `token`, which hands them to the vault to burn (their ETH is
    /// then taken with the LP fees).
    function _redeemSwapFeeClaims(uint256 songId, address token) private returns (uint256 swapFeesEth) {
        swapFeesEth = poolManager.balanceOf(token, _ETH_CLAIM_ID);
        if (swapFeesEth == 0) return 0;
        _swapFeesCollected[songId] += swapFeesEth;
        SongToken(token).releaseFeeClaims(poolManager, swapFeesEth);
        poolManager.burn(address(this), _ETH_CLAIM_ID, swapFeesEth);
    }

    function _poolKey(address token) private view returns (PoolKey memory) {
        return PoolKey({
            currency0: CurrencyLibrary.ADDRESS_ZERO,
            currency1: Currency.wrap(token),
            fee: lpFee,
            tickSpacing: tickSpacing,
            hooks: IHooks(address(hook))
        });
    }
}
