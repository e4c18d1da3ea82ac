// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ISongNFT
/// @notice The song NFT as other Songmint contracts (the vault) and dApps see it.
interface ISongNFT is IERC721 {
    /// @notice A song was minted: `minter` holds `tokenId`, bound to the audio `audioHash` and the
    /// metadata `metadataURI` exactly as signed by the platform.
    event SongMinted(uint256 indexed tokenId, address indexed minter, bytes32 indexed audioHash, string metadataURI);

    /// @notice The key whose signatures authorize mints changed.
    event PlatformSignerUpdated(address indexed previousSigner, address indexed newSigner);

    /// @notice The royalty rate paid to creators (ERC-2981) changed.
    // solhint-disable-next-line gas-indexed-events
    event RoyaltyBpsUpdated(uint16 previousBps, uint16 newBps);

    /// @notice Mints a song token to the caller, authorized by a platform signature over
    /// `keccak256(abi.encodePacked(msg.sender, metadataURI, audioHash))` (EIP-191 signed message).
    /// @dev Reverts `Invalid signature` when the signature is malformed, high-s, or not by the
    /// platform signer for exactly these values; `Signature used` when `audioHash` was minted before.
    /// @param metadataURI The metadata URI, returned verbatim by `tokenURI`.
    /// @param audioHash SHA-256 of the song's audio bytes; each audio can be minted once.
    /// @param signature The 65-byte platform signature (r, s, v).
    /// @return tokenId The new token's id (sequential from 1).
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId);

    /// @notice The hash the platform signs (before the EIP-191 prefix) for a mint by `minter`.
    function mintMessageHash(address minter, string calldata metadataURI, bytes32 audioHash)
        external
        pure
        returns (bytes32);

    /// @notice The address whose signatures currently authorize mints.
    function platformSigner() external view returns (address);

    /// @notice Whether a token was already minted for `audioHash` (its signature is spent).
    function isAudioHashUsed(bytes32 audioHash) external view returns (bool);

    /// @notice Number of tokens minted so far; also the highest token id.
    function totalSupply() external view returns (uint256);

    /// @notice The account that minted `tokenId`: the song's creator, who receives royalties and
    /// creator fees.
    /// @dev Reverts for a token that does not exist.
    function creatorOf(uint256 tokenId) external view returns (address);

    /// @notice SHA-256 of the song's published audio bytes, as bound by the mint signature.
    /// @dev Reverts for a token that does not exist.
    function audioHashOf(uint256 tokenId) external view returns (bytes32);
}
