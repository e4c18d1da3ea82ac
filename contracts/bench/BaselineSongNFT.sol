// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title BaselineSongNFT
/// @notice The straightforward signature mint the gas benchmark (bench/gas/mint.ts) compares
/// SongNFT against: OpenZeppelin ERC721URIStorage, ECDSA and a `mapping(bytes => bool)` of used
/// signatures. Benchmark only; never deployed.
contract BaselineSongNFT is ERC721URIStorage, Ownable {
    /// @notice The address whose signatures authorize mints.
    address public platformSigner;
    uint256 private _lastTokenId;
    /// @notice Whether a signature was used.
    mapping(bytes signature => bool) public usedSignatures;

    /// @notice Creates the baseline collection.
    /// @param platformSigner_ Address whose signatures authorize mints.
    constructor(address platformSigner_) ERC721("Baseline song", "BSONG") Ownable(msg.sender) {
        platformSigner = platformSigner_;
    }

    /// @notice Mints to the caller with a platform signature over (caller, URI, audio hash).
    /// @param metadataURI The token URI, stored as a string.
    /// @param audioHash SHA-256 of the audio bytes.
    /// @param signature EIP-191 signature by the platform signer.
    /// @return tokenId The new token id.
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId)
    {
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(
            keccak256(abi.encodePacked(msg.sender, metadataURI, audioHash))
        );
        require(ECDSA.recover(digest, signature) == platformSigner, "Invalid signature");
        require(!usedSignatures[signature], "Signature used");
        usedSignatures[signature] = true;
        tokenId = ++_lastTokenId;
        _mint(msg.sender, tokenId);
        _setTokenURI(tokenId, metadataURI);
    }
}
