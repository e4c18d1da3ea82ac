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
import {ISongNFT} from "./interfaces/ISongNFT.sol";
import {IpfsCidUri} from "./libraries/IpfsCidUri.sol";

/// @title SongNFT
/// @notice One ERC-721 token per generated song. The creator mints it with a one-time signature
/// from the Songmint platform, which binds the creator's address, the exact metadata URI and the
/// SHA-256 hash of the audio. Creators receive ERC-2981 royalties.
/// @dev Storage is laid out so that a mint writes three fresh slots, which is the minimum for the
/// 84 bytes a token needs (owner, audio hash, metadata digest):
///  - `_tokens[id].owner` slot: owner, "creator moved" flag and URI kind. Until the first transfer
///    the owner IS the creator; the first transfer copies the creator to `_movedCreators`.
///  - `_tokens[id].audioHash` slot: the audio hash.
///  - `_uriCommitments[audioHash]`: non-zero once the audio is minted (the replay guard), holding
///    the CID digest of a packed `ipfs://baf…` URI (see {IpfsCidUri}), or the keccak256 of any
///    other URI, which is then stored verbatim in `_verbatimURIs`.
/// The platform signer and the mint counter share one slot, read by every mint anyway.
contract SongNFT is ISongNFT, IERC721Metadata, IERC2981, IERC721Errors, Ownable2Step {
    /// @notice Royalty rates are in basis points of the sale price.
    uint16 public constant ROYALTY_DENOMINATOR = 10_000;
    /// @notice Highest royalty rate the owner can set (10%).
    uint16 public constant MAX_ROYALTY_BPS = 1_000;

    /// @dev secp256k1 order / 2: signatures with a larger s are the malleated twin of a low-s one.
    uint256 private constant _HALF_CURVE_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    struct TokenRecord {
        address owner;
        bool creatorMoved;
        uint8 uriKind;
        bytes32 audioHash;
    }

    address private _platformSigner;
    uint64 private _totalMinted;
    uint16 private _royaltyBps;

    mapping(uint256 tokenId => TokenRecord) private _tokens;
    mapping(bytes32 audioHash => bytes32 commitment) private _uriCommitments;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => address) private _tokenApprovals;
    mapping(address owner => mapping(address operator => bool)) private _operatorApprovals;
    mapping(uint256 tokenId => address) private _movedCreators;
    mapping(uint256 tokenId => string) private _verbatimURIs;

    /// @notice The platform signer cannot be the zero address.
    error ZeroPlatformSigner();
    /// @notice Royalty rate above `MAX_ROYALTY_BPS`.
    error RoyaltyTooHigh(uint16 bps);
    /// @notice Ownership cannot be renounced: it would freeze the platform signer forever.
    error RenounceDisabled();

    /// @param initialOwner Owner (admin) of the contract; see the README for its powers.
    /// @param platformSigner_ Address whose signatures authorize mints.
    /// @param royaltyBps_ Royalty rate paid to creators, in basis points (at most 1,000).
    constructor(address initialOwner, address platformSigner_, uint16 royaltyBps_) Ownable(initialOwner) {
        _setPlatformSigner(platformSigner_);
        _setRoyaltyBps(royaltyBps_);
    }

    // ---------------------------------------------------------------- minting

    /// @inheritdoc ISongNFT
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId)
    {
        bytes32 digest = keccak256(
            abi.encodePacked("\x19Ethereum Signed Message:\n32", mintMessageHash(msg.sender, metadataURI, audioHash))
        );
        require(_recover(digest, signature) == _platformSigner, "Invalid signature");
        require(_uriCommitments[audioHash] == bytes32(0), "Signature used");

        (uint8 uriKind, bytes32 commitment) = IpfsCidUri.decode(metadataURI);
        tokenId = ++_totalMinted;
        if (uriKind == IpfsCidUri.KIND_NONE || commitment == bytes32(0)) {
            uriKind = IpfsCidUri.KIND_NONE;
            commitment = keccak256(bytes(metadataURI));
            _verbatimURIs[tokenId] = metadataURI;
        }
        _uriCommitments[audioHash] = commitment;
        _tokens[tokenId] = TokenRecord({owner: msg.sender, creatorMoved: false, uriKind: uriKind, audioHash: audioHash});
        unchecked {
            ++_balances[msg.sender];
        }
        emit Transfer(address(0), msg.sender, tokenId);
        emit SongMinted(tokenId, msg.sender, audioHash, metadataURI);
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
    function isAudioHashUsed(bytes32 audioHash) external view returns (bool) {
        return _uriCommitments[audioHash] != bytes32(0);
    }

    /// @inheritdoc ISongNFT
    function totalSupply() external view returns (uint256) {
        return _totalMinted;
    }

    // ---------------------------------------------------------------- admin

    /// @notice Replaces the platform signer; signatures by the previous signer stop working.
    /// @dev Owner only. Emits {PlatformSignerUpdated}.
    function setPlatformSigner(address newSigner) external onlyOwner {
        _setPlatformSigner(newSigner);
    }

    /// @notice Sets the royalty rate (basis points, at most `MAX_ROYALTY_BPS`) for all tokens.
    /// @dev Owner only. Emits {RoyaltyBpsUpdated}.
    function setRoyaltyBps(uint16 newBps) external onlyOwner {
        _setRoyaltyBps(newBps);
    }

    /// @notice Disabled: without an owner the platform signer could never be rotated.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceDisabled();
    }

    // ---------------------------------------------------------------- song data

    /// @inheritdoc ISongNFT
    function creatorOf(uint256 tokenId) public view returns (address) {
        TokenRecord storage token = _existing(tokenId);
        return token.creatorMoved ? _movedCreators[tokenId] : token.owner;
    }

    /// @inheritdoc ISongNFT
    function audioHashOf(uint256 tokenId) external view returns (bytes32) {
        return _existing(tokenId).audioHash;
    }

    /// @notice The royalty rate in basis points of the sale price.
    function royaltyBps() external view returns (uint16) {
        return _royaltyBps;
    }

    /// @inheritdoc IERC2981
    /// @dev The receiver is the song's creator. Reverts for a token that does not exist.
    function royaltyInfo(uint256 tokenId, uint256 salePrice)
        external
        view
        returns (address receiver, uint256 royaltyAmount)
    {
        return (creatorOf(tokenId), salePrice * _royaltyBps / ROYALTY_DENOMINATOR);
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
        TokenRecord storage token = _existing(tokenId);
        uint8 uriKind = token.uriKind;
        if (uriKind == IpfsCidUri.KIND_NONE) return _verbatimURIs[tokenId];
        return IpfsCidUri.encode(uriKind, _uriCommitments[token.audioHash]);
    }

    // ---------------------------------------------------------------- ERC-721

    /// @inheritdoc IERC721
    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _balances[owner];
    }

    /// @inheritdoc IERC721
    function ownerOf(uint256 tokenId) public view returns (address) {
        return _existing(tokenId).owner;
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
        TokenRecord storage token = _existing(tokenId);
        address owner = token.owner;
        if (owner != from) revert ERC721IncorrectOwner(from, tokenId, owner);
        if (msg.sender != owner && !_operatorApprovals[owner][msg.sender] && _tokenApprovals[tokenId] != msg.sender) {
            revert ERC721InsufficientApproval(msg.sender, tokenId);
        }
        if (_tokenApprovals[tokenId] != address(0)) delete _tokenApprovals[tokenId];
        if (!token.creatorMoved) {
            _movedCreators[tokenId] = owner;
            token.creatorMoved = true;
        }
        token.owner = to;
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
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC165).interfaceId || interfaceId == type(IERC721).interfaceId
            || interfaceId == type(IERC721Metadata).interfaceId || interfaceId == type(IERC2981).interfaceId;
    }

    // ---------------------------------------------------------------- internals

    function _existing(uint256 tokenId) private view returns (TokenRecord storage token) {
        token = _tokens[tokenId];
        if (token.owner == address(0)) revert ERC721NonexistentToken(tokenId);
    }

    function _setPlatformSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroPlatformSigner();
        emit PlatformSignerUpdated(_platformSigner, newSigner);
        _platformSigner = newSigner;
    }

    function _setRoyaltyBps(uint16 newBps) private {
        if (newBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(newBps);
        emit RoyaltyBpsUpdated(_royaltyBps, newBps);
        _royaltyBps = newBps;
    }

    /// @dev Signer of `digest`, or address(0) for a malformed, wrong-length or high-s signature.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        uint256 s = uint256(bytes32(signature[32:64]));
        uint8 v = uint8(signature[64]);
        if (s > _HALF_CURVE_ORDER || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, bytes32(s));
    }
}
