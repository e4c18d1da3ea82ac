// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ISongNFT
/// @notice The song NFT as other Songmint contracts (the vault) see it.
interface ISongNFT is IERC721 {
    /// @notice The account that minted `tokenId`: the song's creator, who receives royalties and
    /// creator fees.
    /// @dev Reverts for a token that does not exist.
    function creatorOf(uint256 tokenId) external view returns (address);

    /// @notice SHA-256 of the song's published audio bytes, as bound by the mint signature.
    /// @dev Reverts for a token that does not exist.
    function audioHashOf(uint256 tokenId) external view returns (bytes32);
}
