// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SongVault} from "../SongVault.sol";

/// @title ISongNFTMint
/// @notice The part of SongNFT this probe calls.
interface ISongNFTMint {
    /// @notice Mints a song to the caller (see {ISongNFT-mint}).
    /// @param metadataURI The metadata URI.
    /// @param audioHash SHA-256 of the audio.
    /// @param signature The platform signature.
    /// @return tokenId The new token id.
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId);
}

/// @title FeeClaimerProbe
/// @notice Test-only: a song creator that is a contract, to attack or break fee payouts. Its
/// `receive` accepts ETH, rejects it, or tries to re-enter the vault (and records the outcome).
contract FeeClaimerProbe {
    enum Mode {
        Accept,
        Reject,
        ReenterClaim,
        ReenterCollect
    }

    /// @notice The vault under test.
    SongVault public immutable vault; // solhint-disable-line immutable-vars-naming
    /// @notice How `receive` behaves now.
    Mode public mode;
    uint256[] private _songIds;
    /// @notice Whether `receive` tried to re-enter the vault.
    bool public reentryAttempted;
    /// @notice Whether that re-entry got through (it must not).
    bool public reentrySucceeded;

    error Rejected();

    /// @notice Binds the probe to the vault under test.
    /// @param vault_ The vault.
    constructor(SongVault vault_) {
        vault = vault_;
    }

    /// @notice Sets how `receive` behaves.
    /// @param mode_ The new behaviour.
    function setMode(Mode mode_) external {
        mode = mode_;
    }

    /// @notice Mints a song as this contract (the signature must name this contract) and launches it.
    /// @param uri The metadata URI.
    /// @param audioHash SHA-256 of the audio.
    /// @param signature The platform signature naming this contract.
    /// @return songId The minted and launched song.
    function mintAndLaunch(string calldata uri, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 songId)
    {
        IERC721 nft = IERC721(address(vault.songNFT()));
        songId = ISongNFTMint(address(nft)).mint(uri, audioHash, signature);
        nft.approve(address(vault), songId);
        vault.launch(songId, SongVault.LaunchParams({allocationBps: 0, allocationRecipient: address(this)}));
        _songIds.push(songId);
    }

    /// @notice Claims this contract's fees of `songIds` to `to`.
    /// @param songIds The songs to claim for.
    /// @param to Where the fees go.
    function claim(uint256[] calldata songIds, address payable to) external returns (uint256) {
        return vault.claim(songIds, to);
    }

    /// @notice Accepts, rejects or re-enters, per `mode`.
    receive() external payable { // solhint-disable-line no-complex-fallback
        if (mode == Mode.Reject) revert Rejected();
        if (mode == Mode.ReenterClaim) {
            reentryAttempted = true;
            try vault.claim(_songIds, payable(address(this))) {
                reentrySucceeded = true;
            } catch {}
        } else if (mode == Mode.ReenterCollect && _songIds.length != 0) {
            reentryAttempted = true;
            try vault.collectFees(_songIds[0]) {
                reentrySucceeded = true;
            } catch {}
        }
    }
}
