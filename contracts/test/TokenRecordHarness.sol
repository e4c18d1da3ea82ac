// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TokenRecord, TokenRecordLibrary} from "../types/TokenRecord.sol";

/// @title TokenRecordHarness
/// @notice Test-only: exposes {TokenRecordLibrary} so the tests can check the layout bit by bit.
contract TokenRecordHarness {
    /// @notice {TokenRecordLibrary-audioKeyOf}.
    /// @param audioHash The audio hash.
    function audioKeyOf(bytes32 audioHash) external pure returns (uint256) {
        return TokenRecordLibrary.audioKeyOf(audioHash);
    }

    /// @notice {TokenRecordLibrary-minted}, unwrapped.
    /// @param creator The minter.
    /// @param kind The URI kind.
    /// @param audioHash The audio hash.
    function minted(address creator, uint256 kind, bytes32 audioHash) external pure returns (uint256) {
        return TokenRecord.unwrap(TokenRecordLibrary.minted(creator, kind, audioHash));
    }

    /// @notice {TokenRecordLibrary-minted} with a creator word whose bits above the address may be set,
    /// as assembly can hand a narrow type over (the ABI decoder of `minted` would refuse it).
    /// @param creatorWord The creator in its low 160 bits, anything above.
    /// @param kind The URI kind.
    /// @param audioHash The audio hash.
    function mintedFromWord(uint256 creatorWord, uint256 kind, bytes32 audioHash) external pure returns (uint256) {
        address creator;
        assembly ("memory-safe") {
            creator := creatorWord
        }
        return TokenRecord.unwrap(TokenRecordLibrary.minted(creator, kind, audioHash));
    }

    /// @notice {TokenRecordLibrary-transferredTo}, unwrapped.
    /// @param record The record word before the transfer.
    /// @param to The new owner.
    function transferredTo(uint256 record, address to) external pure returns (uint256) {
        return TokenRecord.unwrap(TokenRecord.wrap(record).transferredTo(to));
    }

    /// @notice Every field of a record word.
    /// @param record The record word.
    /// @return holder The owner field.
    /// @return present Whether the token exists.
    /// @return moved The creator-moved flag.
    /// @return kind The URI kind.
    /// @return key The audio key.
    function read(uint256 record)
        external
        pure
        returns (address holder, bool present, bool moved, uint256 kind, uint256 key)
    {
        TokenRecord r = TokenRecord.wrap(record);
        return (r.owner(), r.exists(), r.creatorMoved(), r.uriKind(), r.audioKey());
    }
}
