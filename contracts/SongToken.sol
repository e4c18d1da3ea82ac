// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {IERC6909Claims} from "@uniswap/v4-core/src/interfaces/external/IERC6909Claims.sol";
import {IERC7572} from "./interfaces/IERC7572.sol";
import {SongTokenDomain} from "./SongTokenDomain.sol";

/// @dev The fixed supply of every SongToken (1,000,000,000 tokens, 18 decimals), shared with the vault.
uint256 constant SONG_TOKEN_SUPPLY = 1_000_000_000e18;

/// @title SongToken
/// @notice The ERC-20 of one launched song: a fixed supply of 1,000,000,000 tokens (18 decimals),
/// with EIP-2612 permit. The pool share is minted at launch into the song's pool; the rest, the
/// launcher's allocation, to its recipient as the vault releases it (vested, after a cliff of at
/// least 7 days), so nobody holds a song token in the launch fee window without having bought it
/// through the pool. Named "Songmint #<songId>", symbol "SONG<songId>". No owner, no minting beyond
/// TOTAL_SUPPLY, no burn, no pause. Its ERC-7572 `contractURI` is its song's metadata URI.
/// @dev Deployed by the SongVault as an EIP-1167 clone (CREATE2, salt = song id) whose immutable
/// argument is the song id, so the address follows from the song id alone and the name costs no
/// storage. The vault creates and initializes a clone in the same transaction, so nobody can
/// initialize it first; the implementation itself can never be initialized.
/// The EIP-712 domain uses the per-song `name()`, which is what wallets read to build a permit.
contract SongToken is ERC20, IERC20Permit, SongTokenDomain, IERC7572, Nonces {
    /// @notice The whole supply: the pool share minted at launch, the allocation as it vests.
    uint256 public constant TOTAL_SUPPLY = SONG_TOKEN_SUPPLY;

    bytes32 private constant _PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 private constant _DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant _VERSION_HASH = keccak256("1");
    /// @dev ERC-6909 id of native ETH claims in the Uniswap v4 PoolManager.
    uint256 private constant _ETH_CLAIM_ID = 0;

    /// @notice The song NFT collection whose songs the tokens belong to (shared by every clone: an
    /// immutable of the implementation's code).
    IERC721Metadata public immutable songNFT; // solhint-disable-line immutable-vars-naming

    /// @dev The implementation's own address: clones run this code at another address.
    address private immutable _IMPLEMENTATION;

    /// @notice `initialize` was called on a token that already has its supply.
    error AlreadyInitialized();
    /// @notice `initialize` was called on the implementation, which is never a token.
    error ImplementationLocked();
    /// @notice The pool share is zero or larger than the total supply.
    error PoolShareTooLarge(uint256 poolShare);
    /// @notice Only the vault that deployed this token mints the rest of its supply or moves its fee claims.
    error NotDeployer(address caller);
    /// @notice Minting `amount` would take the supply past TOTAL_SUPPLY.
    error SupplyExceeded(uint256 amount);
    /// @notice The permit's deadline has passed.
    error ERC2612ExpiredSignature(uint256 deadline);
    /// @notice The permit was not signed by the owner.
    error ERC2612InvalidSigner(address signer, address owner);

    /// @notice Creates the implementation that every song's token clone runs.
    /// @param songNFT_ The SongNFT collection (the vault checks it is its own).
    constructor(IERC721Metadata songNFT_) ERC20("", "") {
        songNFT = songNFT_;
        _IMPLEMENTATION = address(this);
    }

    /// @notice Mints the pool share once, at launch: `poolShare` to `poolHolder` (the Uniswap v4
    /// PoolManager, settling the launch liquidity). The rest of the supply, the launcher's allocation,
    /// is minted later by the vault to the allocation's recipient as it vests (`mintAllocation`).
    /// @dev Callable once per clone (the supply is never zero afterwards) and never on the
    /// implementation. The vault calls it in the launch transaction that created the clone.
    /// @param poolHolder Receiver of the liquidity share.
    /// @param poolShare Tokens for the liquidity position (not zero).
    function initialize(address poolHolder, uint256 poolShare) external {
        if (address(this) == _IMPLEMENTATION) revert ImplementationLocked();
        if (totalSupply() != 0) revert AlreadyInitialized();
        if (poolShare == 0 || poolShare > TOTAL_SUPPLY) revert PoolShareTooLarge(poolShare);
        _mint(poolHolder, poolShare);
    }

    /// @notice Mints `amount` of the launcher's allocation to `to`, as the vault releases what has
    /// vested. The supply never passes TOTAL_SUPPLY, and the vault reads what was claimed of the
    /// allocation from it (the supply beyond the pool share).
    /// @dev Only the clone's deployer (the SongVault: the CREATE2 address of this clone from the
    /// caller, with this song id, must be this contract) may call it.
    /// @param to Receiver of the allocation.
    /// @param amount Tokens to mint.
    function mintAllocation(address to, uint256 amount) external {
        _checkDeployer();
        // The vault calls it only for a launched song, whose pool share exists.
        if (amount > TOTAL_SUPPLY - totalSupply()) revert SupplyExceeded(amount);
        _mint(to, amount);
    }

    /// @notice Hands `amount` of the PoolManager ERC-6909 claims on native ETH held in this token's
    /// name to the vault. The song pool's hook (SongPoolHook) mints its swap fees there, so the
    /// claims this token holds are its song's hook fees not yet collected; the vault moves them to
    /// itself and redeems them when it collects the song's fees.
    /// @dev Only the clone's deployer (the SongVault, checked as in {mintAllocation}) may call it; it names
    /// its own PoolManager.
    /// @param poolManager The Uniswap v4 PoolManager whose claims move.
    /// @param amount Wei of ETH claims to move to the vault.
    function releaseFeeClaims(IERC6909Claims poolManager, uint256 amount) external {
        _checkDeployer();
        poolManager.transfer(msg.sender, _ETH_CLAIM_ID, amount);
    }

    /// @notice The song (SongNFT token id) this token belongs to; 0 on the implementation.
    function songId() public view returns (uint256) {
        if (address(this) == _IMPLEMENTATION) return 0;
        return abi.decode(Clones.fetchCloneArgs(address(this)), (uint256));
    }

    /// @notice ERC-7572: the token's metadata is its song's, `songNFT.tokenURI(songId)` (which never
    /// changes, so `ContractURIUpdated` is never emitted). Empty on the implementation.
    function contractURI() external view returns (string memory) {
        uint256 id = songId();
        if (id == 0) return "";
        return songNFT.tokenURI(id);
    }

    /// @notice "Songmint #<songId>".
    function name() public view override returns (string memory) {
        return _songName();
    }

    /// @notice "SONG<songId>".
    function symbol() public view override returns (string memory) {
        return string.concat("SONG", Strings.toString(songId()));
    }

    /// @notice EIP-2612: sets `spender`'s allowance over `owner`'s tokens from `owner`'s signature.
    /// @param owner The token holder who signed.
    /// @param spender The account allowed to spend.
    /// @param value The allowance.
    /// @param deadline Last timestamp at which the signature is valid.
    /// @param v Signature recovery id.
    /// @param r Signature r.
    /// @param s Signature s.
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        if (block.timestamp > deadline) revert ERC2612ExpiredSignature(deadline);
        bytes32 structHash = keccak256(abi.encode(_PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline));
        address signer = ECDSA.recover(MessageHashUtils.toTypedDataHash(DOMAIN_SEPARATOR(), structHash), v, r, s);
        if (signer != owner) revert ERC2612InvalidSigner(signer, owner);
        _approve(owner, spender, value);
    }

    /// @notice The next permit nonce of `owner`.
    /// @param owner The token holder.
    function nonces(address owner) public view override(IERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }

    /// @notice The EIP-712 domain separator of permits (name(), version "1", chain id, this address).
    function DOMAIN_SEPARATOR() public view returns (bytes32) { // solhint-disable-line func-name-mixedcase
        return keccak256(abi.encode(_DOMAIN_TYPEHASH, keccak256(bytes(name())), _VERSION_HASH, block.chainid, address(this)));
    }

    /// @dev The EIP-712 domain name: the per-song `name()`.
    function _domainName() internal view override returns (string memory) {
        return _songName();
    }

    /// @dev Reverts unless the caller deployed this clone: the CREATE2 address of this clone from the
    /// caller, with this song id, must be this contract (never true on the implementation).
    function _checkDeployer() private view {
        uint256 id = songId();
        if (
            id == 0
                || Clones.predictDeterministicAddressWithImmutableArgs(_IMPLEMENTATION, abi.encode(id), bytes32(id), msg.sender)
                    != address(this)
        ) revert NotDeployer(msg.sender);
    }

    function _songName() private view returns (string memory) {
        return string.concat("Songmint #", Strings.toString(songId()));
    }
}
