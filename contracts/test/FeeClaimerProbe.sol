// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {SongVault} from "../SongVault.sol";

interface ISongNFTMint {
    function mint(string calldata metadataURI, bytes32 audioHash, bytes calldata signature)
        external
        returns (uint256 tokenId);
}

/// @notice Test-only: a song creator that is a contract, to attack or break fee payouts. Its
/// `receive` accepts ETH, rejects it, or tries to re-enter the vault (and records the outcome).
contract FeeClaimerProbe {
    enum Mode {
        Accept,
        Reject,
        ReenterClaim,
        ReenterCollect
    }

    // solhint-disable-next-line immutable-vars-naming
    SongVault public immutable vault;
    Mode public mode;
    uint256[] private _songIds;
    bool public reentryAttempted;
    bool public reentrySucceeded;

    error Rejected();

    constructor(SongVault vault_) {
        vault = vault_;
    }

    /// @notice Sets how `receive` behaves.
    function setMode(Mode mode_) external {
        mode = mode_;
    }

    /// @notice Mints a song as this contract (the signature must name this contract) and launches it.
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
    function claim(uint256[] calldata songIds, address payable to) external returns (uint256) {
        return vault.claim(songIds, to);
    }

    // solhint-disable-next-line no-complex-fallback
    receive() external payable {
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
