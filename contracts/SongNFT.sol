// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC165} from "@openzeppelin/contracts/interfaces/IERC165.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {IERC7572} from "./interfaces/IERC7572.sol";
import {ISongNFT} from "./interfaces/ISongNFT.sol";
import {IpfsCidUri} from "./libraries/IpfsCidUri.sol";
import {TokenRecord, TokenRecordLibrary} from "./types/TokenRecord.sol";

/// @title SongNFT
/// @notice One ERC-721 token per generated song. The creator mints it with a one-time signature
/// from the Songmint platform, which binds the creator's address, the exact metadata URI and the
/// SHA-256 hash of the audio. Creators receive ERC-2981 royalties.
/// @dev Storage is laid out so that a mint writes two fresh slots, the minimum for a token that
/// carries an owner (20 bytes) and a CID digest (32 bytes) and that must be findable both from its
/// id (`tokenURI`) and from its audio (the replay guard):
///  - `_tokenRecords[id]`: a {TokenRecord}: owner, "creator moved" flag, URI kind and the audio
///    key, the high `AUDIO_KEY_BITS` (93) bits of the audio hash (layout in types/TokenRecord.sol).
///    Until the first transfer the owner IS the creator; the first transfer copies the creator to
///    `_movedCreators` (ERC721A-style lazy data: mints stay cheap, a first transfer pays one
///    extra slot).
///  - `_commitments[audioKey]`: non-zero once a token with that audio key is minted, which is the
///    replay guard, and it is the URI: the 32-byte sha2-256 digest of a packed `ipfs://bafkrei…` /
///    `bafybei…` URI (see {IpfsCidUri}), or, for any other URI (stored verbatim in
///    `_verbatimURIs`), its keccak256.
/// The platform signer and the mint counter share one slot, read by every mint anyway.
///
/// Why a 93-bit audio key and not the 32-byte hash: the slot that guards an audio must be found
/// from the audio hash alone, and `tokenURI` must find the same slot from the token's record,
/// which has 93 bits left beside the owner and flags. Keeping the whole hash would cost a third
/// fresh slot (22,100 gas per mint). The full hash stays in the `SongMinted` event (indexed).
/// What the truncation allows, and why it is safe:
///  - a mint fails `Signature used` when another token has the same audio key. For a given
///    unminted song that takes a second preimage of SHA-256 on 93 bits: about 2^93 candidate
///    audios, and every candidate must be generated and signed by the platform (it signs only
///    audio it produced and re-hashed, once per audio), so it is out of reach; aimed at any of N
///    pending songs, 2^93 / N (2^63 for a billion). Honest songs collide with probability about
///    N^2 / 2^94 (2^-34 for a billion songs).
///  - a birthday search (about 2^46.5 generated audios) finds two audios with one key, which only
///    blocks the searcher's own second audio.
///  - a signature is still bound to the full audio hash (it is in the signed message), so a key
///    collision never lets anyone mint audio the platform did not sign.
contract SongNFT is ISongNFT, IERC721Metadata, IERC2981, IERC7572, IERC721Errors, Ownable2Step {
    /// @notice Royalty rates are in basis points of the sale price.
    uint16 public constant ROYALTY_DENOMINATOR = 10_000;
    /// @notice Highest royalty rate the owner can set (10%).
    uint16 public constant MAX_ROYALTY_BPS = 1_000;
    /// @notice `contractURI()` until the owner sets one (ERC-7572 JSON, inline).
    string public constant DEFAULT_CONTRACT_URI =
        "data:application/json;utf8,{\"name\":\"Songmint\",\"description\":\"Songs generated with Songmint and owned by their creators.\"}";

    /// @dev secp256k1 order / 2: signatures with a larger s are the malleated twin of a low-s one.
    uint256 private constant _HALF_CURVE_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    /// @dev keccak256("Transfer(address,address,uint256)")
    bytes32 private constant _TRANSFER_EVENT = 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef;
    /// @dev keccak256("SongMinted(uint256,address,bytes32,string)"), checked by the tests.
    bytes32 private constant _SONG_MINTED_EVENT = 0xd0f071d47e5caacf2a8d13ddf1a9d3dab5ea8a5071abb066d6be5737e349ce10;

    /// @notice Width of the audio key: the high bits of an audio hash that identify it on chain.
    uint256 public constant AUDIO_KEY_BITS = TokenRecordLibrary.AUDIO_KEY_BITS;

    address private _platformSigner;
    uint64 private _totalMinted;
    uint16 private _royaltyBps;

    mapping(uint256 tokenId => TokenRecord) private _tokenRecords;
    mapping(uint256 audioKey => bytes32 commitment) private _commitments;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => address) private _tokenApprovals;
    mapping(address owner => mapping(address operator => bool)) private _operatorApprovals;
    mapping(uint256 tokenId => address) private _movedCreators;
    mapping(uint256 tokenId => string) private _verbatimURIs;
    mapping(address signer => bool) private _retiredSigners;
    string private _contractURI;

    /// @notice The platform signer cannot be the zero address.
    error ZeroPlatformSigner();
    /// @notice The royalty rate exceeds the collection's cap of `maxBps` (MAX_ROYALTY_BPS, 10%).
    /// (Not OpenZeppelin's `ERC2981InvalidDefaultRoyalty`, which it raises for a fraction above 1: a
    /// numerator above the denominator.)
    /// @param bps The rate asked for, in basis points.
    /// @param maxBps The cap, in basis points.
    error RoyaltyRateTooHigh(uint256 bps, uint256 maxBps);
    /// @notice Ownership cannot be renounced: it would freeze the platform signer forever.
    error RenounceDisabled();
    /// @notice The signer is the current one or was rotated away before: a retired key never
    /// signs for this contract again, so its unused signatures stay dead.
    error PlatformSignerReused(address signer);

    /// @notice Creates the collection with its owner, platform signer and royalty rate.
    /// @param initialOwner Owner (admin) of the contract; see the README for its powers.
    /// @param platformSigner_ Address whose signatures authorize mints.
    /// @param royaltyBps_ Royalty rate paid to creators, in basis points (at most 1,000).
    constructor(address initialOwner, address platformSigner_, uint16 royaltyBps_) Ownable(initialOwner) {
        _setPlatformSigner(platformSigner_);
        _setRoyaltyBps(royaltyBps_);
    }

    // ---------------------------------------------------------------- minting

    /// @inheritdoc ISongNFT
    /// @dev The signature must be 65 bytes (r, s, v), s <= n/2, and recover to the platform signer
    /// from `toEthSignedMessageHash(mintMessageHash(msg.sender, metadataURI, audioHash))`.
    /// Assembly where it saves gas on the hot path; the writes are those described on the contract.
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature) // solhint-disable-line function-max-lines
        external
        returns (uint256 tokenId)
    {
        uint256 commitmentSlot;
        // Scoped so the flags free their stack slots before the URI is packed.
        {
            bool signedByPlatform;
            bool audioUsed;
            uint256 audioKey = TokenRecordLibrary.audioKeyOf(audioHash);
            assembly ("memory-safe") {
                // Free memory is scratch here, never claimed: nothing in it outlives this block.
                let m := mload(0x40)
                mstore(m, shl(96, caller()))
                calldatacopy(add(m, 20), metadataURI.offset, metadataURI.length)
                mstore(add(add(m, 20), metadataURI.length), audioHash)
                let message := keccak256(m, add(metadataURI.length, 52))
                mstore(0x00, "\x19Ethereum Signed Message:\n32")
                mstore(0x1c, message)
                mstore(m, keccak256(0x00, 0x3c))
                mstore(add(m, 0x20), byte(0, calldataload(add(signature.offset, 0x40))))
                calldatacopy(add(m, 0x40), signature.offset, 0x40)
                // ecrecover returns nothing for an invalid signature (v not 27/28, r or s out of
                // range): 0x00 then still holds the prefix word, which never equals a 20-byte
                // address, so address(0) never passes (and the signer is never zero).
                pop(staticcall(gas(), 1, m, 0x80, 0x00, 0x20))
                let state := sload(_platformSigner.slot)
                signedByPlatform := and(
                    and(eq(signature.length, 65), iszero(gt(mload(add(m, 0x60)), _HALF_CURVE_ORDER))),
                    eq(mload(0x00), and(state, 0xffffffffffffffffffffffffffffffffffffffff))
                )
                // `_totalMinted` sits above the signer in the same slot.
                tokenId := add(and(shr(160, state), 0xffffffffffffffff), 1)
                sstore(_platformSigner.slot, add(state, shl(160, 1)))
                mstore(0x00, audioKey)
                mstore(0x20, _commitments.slot)
                commitmentSlot := keccak256(0x00, 0x40)
                audioUsed := iszero(iszero(sload(commitmentSlot)))
            }
            require(signedByPlatform, "Invalid signature");
            require(!audioUsed, "Signature used");
        }

        (uint256 uriKind, uint256 commitment) = IpfsCidUri.pack(metadataURI);
        if (uriKind == IpfsCidUri.KIND_NONE) {
            // Any other URI is stored verbatim; its keccak256 marks the audio key as used.
            commitment = uint256(keccak256(bytes(metadataURI)));
            _verbatimURIs[tokenId] = metadataURI;
        }
        TokenRecord record = TokenRecordLibrary.minted(msg.sender, uriKind, audioHash);
        assembly ("memory-safe") {
            sstore(commitmentSlot, commitment)
            // _tokenRecords[tokenId] = record
            mstore(0x00, tokenId)
            mstore(0x20, _tokenRecords.slot)
            sstore(keccak256(0x00, 0x40), record)
            // ++_balances[msg.sender]
            mstore(0x00, caller())
            mstore(0x20, _balances.slot)
            let balanceSlot := keccak256(0x00, 0x40)
            sstore(balanceSlot, add(sload(balanceSlot), 1))

            // emit Transfer(address(0), msg.sender, tokenId)
            log4(0, 0, _TRANSFER_EVENT, 0, caller(), tokenId)
            // emit SongMinted(tokenId, msg.sender, audioHash, metadataURI): data is abi.encode(uri)
            let m := mload(0x40)
            mstore(m, 0x20)
            mstore(add(m, 0x20), metadataURI.length)
            calldatacopy(add(m, 0x40), metadataURI.offset, metadataURI.length)
            mstore(add(add(m, 0x40), metadataURI.length), 0)
            log4(
                m,
                add(0x40, and(add(metadataURI.length, 31), not(31))),
                _SONG_MINTED_EVENT,
                tokenId,
                caller(),
                audioHash
            )
        }
    }

    /// @inheritdoc ISongNFT
    function mintMessageHash(address minter, string calldata metadataURI, bytes32 audioHash)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encodePacked(minter, metadataURI, audioHash));
    }

    /// @inheritdoc ISongNFT
    function platformSigner() external view returns (address) {
        return _platformSigner;
    }

    /// @inheritdoc ISongNFT
    function isRetiredSigner(address signer) external view returns (bool) {
        return _retiredSigners[signer];
    }

    /// @inheritdoc ISongNFT
    /// @dev The checks of {mint}: 65 bytes, s <= n/2, v 27 or 28, a valid point.
    function recoverMintSigner(
        address minter,
        string calldata metadataURI,
        bytes32 audioHash,
        bytes calldata signature
    ) external pure returns (address signer) {
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(mintMessageHash(minter, metadataURI, audioHash));
        (signer,,) = ECDSA.tryRecoverCalldata(digest, signature);
    }

    /// @inheritdoc ISongNFT
    function isAudioHashUsed(bytes32 audioHash) external view returns (bool) {
        return _commitments[TokenRecordLibrary.audioKeyOf(audioHash)] != bytes32(0);
    }

    /// @inheritdoc ISongNFT
    function totalSupply() external view returns (uint256) {
        return _totalMinted;
    }

    // ---------------------------------------------------------------- admin

    /// @notice Replaces the platform signer; signatures by the previous signer stop working for
    /// good: it is retired and can never be the signer again.
    /// @dev Owner only. Emits {PlatformSignerUpdated}. Reverts {PlatformSignerReused} for the
    /// current signer or a retired one.
    /// @param newSigner The new platform signer: neither the current one nor a retired one.
    function setPlatformSigner(address newSigner) external onlyOwner {
        _setPlatformSigner(newSigner);
    }

    /// @notice Sets the royalty rate (basis points, at most `MAX_ROYALTY_BPS`) for all tokens.
    /// @dev Owner only. Emits {RoyaltyBpsUpdated} and ERC-4906 {BatchMetadataUpdate} over every
    /// token id: marketplaces keep royalty terms with the token data they cache.
    /// @param newBps The royalty rate in basis points, at most `MAX_ROYALTY_BPS`.
    function setRoyaltyBps(uint16 newBps) external onlyOwner {
        _setRoyaltyBps(newBps);
        emit BatchMetadataUpdate(1, type(uint256).max);
    }

    /// @notice Sets the collection's ERC-7572 metadata URI (empty: back to DEFAULT_CONTRACT_URI).
    /// @dev Owner only. Emits {ContractURIUpdated}.
    /// @param newContractURI The ERC-7572 collection metadata URI; empty restores the default.
    function setContractURI(string calldata newContractURI) external onlyOwner {
        _contractURI = newContractURI;
        emit ContractURIUpdated();
    }

    /// @notice Disabled: without an owner the platform signer could never be rotated.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceDisabled();
    }

    // ---------------------------------------------------------------- song data

    /// @inheritdoc ISongNFT
    function creatorOf(uint256 tokenId) public view returns (address) {
        return _creator(tokenId, _existing(tokenId));
    }

    /// @inheritdoc ISongNFT
    function audioKeyOf(uint256 tokenId) external view returns (uint96) {
        return uint96(_existing(tokenId).audioKey());
    }

    /// @inheritdoc ISongNFT
    function matchesAudioHash(uint256 tokenId, bytes32 audioHash) external view returns (bool) {
        return _existing(tokenId).audioKey() == TokenRecordLibrary.audioKeyOf(audioHash);
    }

    /// @inheritdoc IERC7572
    function contractURI() external view returns (string memory) {
        string memory uri = _contractURI;
        return bytes(uri).length == 0 ? DEFAULT_CONTRACT_URI : uri;
    }

    /// @notice The royalty rate in basis points of the sale price.
    function royaltyBps() external view returns (uint16) {
        return _royaltyBps;
    }

    /// @inheritdoc IERC2981
    /// @dev The receiver is the song's creator (`creatorOf`), the amount `salePrice * royaltyBps /
    /// 10,000` rounded down. For an id that does not exist it returns `(address(0), 0)` and does not
    /// revert: there is no creator to pay. OpenZeppelin 5.7's ERC2981 does not revert for an unknown
    /// id either, but it answers with the default royalty (receiver and rate) when one is set, and
    /// `(address(0), 0)` only when neither a token royalty nor a default is set; this collection has
    /// no default receiver, so an unknown id gets no royalty.
    function royaltyInfo(uint256 tokenId, uint256 salePrice)
        external
        view
        returns (address receiver, uint256 royaltyAmount)
    {
        TokenRecord record = _tokenRecords[tokenId];
        if (!record.exists()) return (address(0), 0);
        receiver = _creator(tokenId, record);
        royaltyAmount = salePrice * _royaltyBps / ROYALTY_DENOMINATOR;
    }

    // ---------------------------------------------------------------- ERC-721 metadata

    /// @inheritdoc IERC721Metadata
    function name() external pure returns (string memory) {
        return "Songmint";
    }

    /// @inheritdoc IERC721Metadata
    function symbol() external pure returns (string memory) {
        return "SONG";
    }

    /// @inheritdoc IERC721Metadata
    /// @dev Exactly the string passed to {mint}.
    function tokenURI(uint256 tokenId) external view returns (string memory) {
        TokenRecord record = _existing(tokenId);
        uint256 uriKind = record.uriKind();
        if (uriKind == IpfsCidUri.KIND_NONE) return _verbatimURIs[tokenId];
        return IpfsCidUri.decodeUri(uriKind, uint256(_commitments[record.audioKey()]));
    }

    // ---------------------------------------------------------------- ERC-721

    /// @inheritdoc IERC721
    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _balances[owner];
    }

    /// @inheritdoc IERC721
    function ownerOf(uint256 tokenId) public view returns (address) {
        return _existing(tokenId).owner();
    }

    /// @inheritdoc IERC721
    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (msg.sender != owner && !_operatorApprovals[owner][msg.sender]) revert ERC721InvalidApprover(msg.sender);
        _tokenApprovals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    /// @inheritdoc IERC721
    function getApproved(uint256 tokenId) external view returns (address) {
        _existing(tokenId);
        return _tokenApprovals[tokenId];
    }

    /// @inheritdoc IERC721
    function setApprovalForAll(address operator, bool approved) external {
        if (operator == address(0)) revert ERC721InvalidOperator(address(0));
        _operatorApprovals[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    /// @inheritdoc IERC721
    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operatorApprovals[owner][operator];
    }

    /// @inheritdoc IERC721
    function transferFrom(address from, address to, uint256 tokenId) public {
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        TokenRecord record = _existing(tokenId);
        address owner = record.owner();
        if (owner != from) revert ERC721IncorrectOwner(from, tokenId, owner);
        if (msg.sender != owner && !_operatorApprovals[owner][msg.sender] && _tokenApprovals[tokenId] != msg.sender) {
            revert ERC721InsufficientApproval(msg.sender, tokenId);
        }
        if (_tokenApprovals[tokenId] != address(0)) delete _tokenApprovals[tokenId];
        if (!record.creatorMoved()) _movedCreators[tokenId] = owner;
        _tokenRecords[tokenId] = record.transferredTo(to);
        unchecked {
            --_balances[from];
            ++_balances[to];
        }
        emit Transfer(from, to, tokenId);
    }

    /// @inheritdoc IERC721
    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    /// @inheritdoc IERC721
    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        ERC721Utils.checkOnERC721Received(msg.sender, from, to, tokenId, data);
    }

    // ---------------------------------------------------------------- ERC-165

    /// @inheritdoc IERC165
    /// @dev ERC-165, ERC-721, ERC-721 Metadata, ERC-2981 and ERC-4906 (`0x49064906`).
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC165).interfaceId || interfaceId == type(IERC721).interfaceId
            || interfaceId == type(IERC721Metadata).interfaceId || interfaceId == type(IERC2981).interfaceId
            || interfaceId == bytes4(0x49064906);
    }

    // ---------------------------------------------------------------- internals

    /// @dev The token's record (see the layout notes); reverts when there is no such token.
    function _existing(uint256 tokenId) private view returns (TokenRecord record) {
        record = _tokenRecords[tokenId];
        if (!record.exists()) revert ERC721NonexistentToken(tokenId);
    }

    /// @dev The creator of an existing token: the owner until the first transfer moves it aside.
    function _creator(uint256 tokenId, TokenRecord record) private view returns (address) {
        return record.creatorMoved() ? _movedCreators[tokenId] : record.owner();
    }

    function _setPlatformSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroPlatformSigner();
        address previous = _platformSigner;
        if (newSigner == previous || _retiredSigners[newSigner]) revert PlatformSignerReused(newSigner);
        if (previous != address(0)) _retiredSigners[previous] = true;
        emit PlatformSignerUpdated(previous, newSigner);
        _platformSigner = newSigner;
    }

    function _setRoyaltyBps(uint16 newBps) private {
        if (newBps > MAX_ROYALTY_BPS) revert RoyaltyRateTooHigh(newBps, MAX_ROYALTY_BPS);
        emit RoyaltyBpsUpdated(_royaltyBps, newBps);
        _royaltyBps = newBps;
    }
}
