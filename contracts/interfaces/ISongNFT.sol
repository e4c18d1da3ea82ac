// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ISongNFT
/// @notice The song NFT as other Songmint contracts (the vault) and dApps see it.
interface ISongNFT is IERC721 {
    /// @notice A song was minted: `minter` holds `tokenId`, bound to the audio `audioHash` and the
    /// metadata `metadataURI` exactly as signed by the platform.
    /// @param tokenId The new token id.
    /// @param minter The caller of `mint`, the song's creator.
    /// @param audioHash SHA-256 of the song's audio bytes.
    /// @param metadataURI The metadata URI exactly as signed.
    event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI);

    /// @notice The key whose signatures authorize mints changed; `previousSigner` is retired for
    /// good (zero at deployment). From this event's block on, unused signatures by the previous
    /// signer fail `Invalid signature`.
    /// @param previousSigner The retired signer (zero at deployment).
    /// @param newSigner The signer from now on.
    event PlatformSignerUpdated(address indexed previousSigner, address indexed newSigner);

    /// @notice ERC-4906: the metadata of tokens `_fromTokenId` to `_toTokenId` (inclusive) may have
    /// changed. SongNFT emits it over every id when the royalty rate changes; token URIs never do.
    /// @param _fromTokenId First token id of the range.
    /// @param _toTokenId Last token id of the range.
    event BatchMetadataUpdate(uint256 _fromTokenId, uint256 _toTokenId); // solhint-disable-line gas-indexed-events

    /// @notice The royalty rate paid to creators (ERC-2981) changed.
    /// @param previousBps The rate until now, in basis points.
    /// @param newBps The rate from now on, in basis points.
    event RoyaltyBpsUpdated(uint16 previousBps, uint16 newBps); // solhint-disable-line gas-indexed-events

    /// @notice Mints a song token to the caller, authorized by a platform signature over
    /// `keccak256(abi.encodePacked(msg.sender, metadataURI, audioHash))` (EIP-191 signed message).
    /// @dev Reverts `Invalid signature` when the signature is malformed, high-s, or not by the
    /// platform signer for exactly these values; `Signature used` when a token with the audio key of
    /// `audioHash` (its high 93 bits, see `isAudioHashUsed`) was minted before.
    /// @param metadataURI The metadata URI, returned verbatim by `tokenURI`.
    /// @param audioHash SHA-256 of the song's audio bytes; each audio can be minted once.
    /// @param signature The 65-byte platform signature (r, s, v).
    /// @return tokenId The new token's id (sequential from 1).
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId);

    /// @notice The hash the platform signs (before the EIP-191 prefix) for a mint by `minter`.
    /// @param minter The account that calls `mint`.
    /// @param metadataURI The metadata URI, byte for byte.
    /// @param audioHash SHA-256 of the song's audio bytes.
    function mintMessageHash(address minter, string calldata metadataURI, bytes32 audioHash)
        external
        pure
        returns (bytes32);

    /// @notice The address whose signatures currently authorize mints.
    function platformSigner() external view returns (address);

    /// @notice Whether `signer` was the platform signer once and was rotated away. A retired signer
    /// can never be set again, so its unused signatures never mint.
    /// @param signer The address to check.
    function isRetiredSigner(address signer) external view returns (bool);

    /// @notice The address that made `signature` over a mint of `metadataURI` and `audioHash` by
    /// `minter` (the EIP-191 message of `mintMessageHash`), or zero when `mint` would reject the
    /// signature as malformed (not 65 bytes, high s, bad v, invalid point). `mint` accepts it iff
    /// this equals `platformSigner()` (and the audio is unused); after a rotation the oracle reads
    /// it to tell a retired signer's signature from a live one.
    /// @param minter The account that calls `mint`.
    /// @param metadataURI The metadata URI, byte for byte.
    /// @param audioHash SHA-256 of the song's audio bytes.
    /// @param signature The signature to check.
    function recoverMintSigner(
        address minter,
        string calldata metadataURI,
        bytes32 audioHash,
        bytes calldata signature
    ) external pure returns (address);

    /// @notice Whether a token was already minted for `audioHash` (its signature is spent).
    /// @dev Audio is identified on chain by its audio key, the high 93 bits of the hash: this is
    /// true for any hash with the key of a minted one (for SHA-256 hashes of different audio,
    /// finding one takes about 2^93 tries), and exactly then `mint` fails `Signature used`.
    /// @param audioHash SHA-256 of the song's audio bytes.
    function isAudioHashUsed(bytes32 audioHash) external view returns (bool);

    /// @notice Number of tokens minted so far; also the highest token id.
    function totalSupply() external view returns (uint256);

    /// @notice The account that minted `tokenId`: the song's creator, who receives royalties and
    /// creator fees.
    /// @dev Reverts for a token that does not exist.
    /// @param tokenId The song token id.
    function creatorOf(uint256 tokenId) external view returns (address);

    /// @notice The token's audio key: the high 93 bits of the SHA-256 audio hash bound by the mint
    /// signature, `uint256(audioHash) >> 163`. The full hash is in the token's `SongMinted` event.
    /// @dev Reverts for a token that does not exist.
    /// @param tokenId The song token id.
    function audioKeyOf(uint256 tokenId) external view returns (uint96);

    /// @notice Whether `audioHash` has the token's audio key, i.e. agrees with the hash bound at
    /// mint on its high 93 bits (a different SHA-256 audio hash passes with probability 2^-93).
    /// @dev Reverts for a token that does not exist.
    /// @param tokenId The song token id.
    /// @param audioHash The hash to compare with the one bound at mint.
    function matchesAudioHash(uint256 tokenId, bytes32 audioHash) external view returns (bool);
}
