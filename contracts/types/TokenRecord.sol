// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev A SongNFT token's record: one storage word per token, written once by `mint` and rewritten
/// by transfers. Layout, from the least significant bit:
///
///   | bits    | field          | meaning                                                          |
///   |---------|----------------|------------------------------------------------------------------|
///   | 0-159   | owner          | the token's owner; zero means the token does not exist           |
///   | 160     | creator moved  | set by the first transfer, which copies the creator aside        |
///   | 161-162 | URI kind       | 0 verbatim, 1 raw CIDv1, 2 dag-pb CIDv1 (see IpfsCidUri)         |
///   | 163-255 | audio key      | the high 93 bits of the audio hash bound at mint                 |
///
/// Until the creator-moved flag is set the owner is the creator (the minter).
type TokenRecord is uint256;

using TokenRecordLibrary for TokenRecord global;

/// @title TokenRecordLibrary
/// @notice Packs and reads the {TokenRecord} word, the one place its bit layout is written down.
library TokenRecordLibrary {
    /// @notice Width of the audio key: the high bits of an audio hash that identify it on chain.
    uint256 internal constant AUDIO_KEY_BITS = 93;
    /// @notice Where the audio key starts (256 - AUDIO_KEY_BITS).
    uint256 internal constant AUDIO_KEY_SHIFT = 163;
    /// @notice Where the 2-bit URI kind starts.
    uint256 internal constant URI_KIND_SHIFT = 161;
    /// @notice The creator-moved flag.
    uint256 internal constant CREATOR_MOVED = 1 << 160;
    /// @notice The largest URI kind the 2-bit field holds.
    uint256 internal constant MAX_URI_KIND = 3;
    uint256 private constant _OWNER_MASK = type(uint160).max;

    /// @notice A URI kind above MAX_URI_KIND would spill into the audio key.
    error TokenRecordUriKindOutOfRange(uint256 kind);
    /// @notice A zero creator would read as no token.
    error TokenRecordZeroCreator();

    /// @notice The audio key of `audioHash`: its high AUDIO_KEY_BITS bits.
    /// @param audioHash The audio hash (`0x` + SHA-256 of the MP3).
    /// @return key The audio key.
    function audioKeyOf(bytes32 audioHash) internal pure returns (uint256 key) {
        assembly ("memory-safe") {
            key := shr(AUDIO_KEY_SHIFT, audioHash)
        }
    }

    /// @notice The record of a token just minted by `creator` (its owner, creator not moved).
    /// @dev Reverts rather than corrupt the word: a kind above MAX_URI_KIND would overwrite audio key
    /// bits, a zero creator would read as no token. Only the low 160 bits of `creator` are read
    /// (assembly sees a narrow type's upper bits as they are, which Solidity does not promise clean).
    /// @param creator The minter; not zero.
    /// @param kind The URI kind, at most MAX_URI_KIND.
    /// @param audioHash The audio hash; only its audio key is kept.
    /// @return record The packed record.
    function minted(address creator, uint256 kind, bytes32 audioHash) internal pure returns (TokenRecord record) {
        if (kind > MAX_URI_KIND) revert TokenRecordUriKindOutOfRange(kind);
        if (creator == address(0)) revert TokenRecordZeroCreator();
        assembly ("memory-safe") {
            record := or(
                shl(AUDIO_KEY_SHIFT, shr(AUDIO_KEY_SHIFT, audioHash)),
                or(shl(URI_KIND_SHIFT, kind), shr(96, shl(96, creator)))
            )
        }
    }

    /// @notice The record after a transfer to `to`: the new owner, the creator-moved flag set, the
    /// rest unchanged.
    /// @param self The record before the transfer.
    /// @param to The new owner.
    function transferredTo(TokenRecord self, address to) internal pure returns (TokenRecord) {
        return TokenRecord.wrap((TokenRecord.unwrap(self) & ~_OWNER_MASK) | CREATOR_MOVED | uint256(uint160(to)));
    }

    /// @notice The token's owner (zero: no such token).
    /// @param self The record.
    function owner(TokenRecord self) internal pure returns (address) {
        return address(uint160(TokenRecord.unwrap(self)));
    }

    /// @notice Whether the token exists (has an owner).
    /// @param self The record.
    function exists(TokenRecord self) internal pure returns (bool) {
        return TokenRecord.unwrap(self) & _OWNER_MASK != 0;
    }

    /// @notice Whether a transfer moved the creator out of the record (the owner is no longer it).
    /// @param self The record.
    function creatorMoved(TokenRecord self) internal pure returns (bool) {
        return TokenRecord.unwrap(self) & CREATOR_MOVED != 0;
    }

    /// @notice The URI kind (0 verbatim, 1 raw CIDv1, 2 dag-pb CIDv1).
    /// @param self The record.
    function uriKind(TokenRecord self) internal pure returns (uint256) {
        return (TokenRecord.unwrap(self) >> URI_KIND_SHIFT) & 3;
    }

    /// @notice The audio key bound at mint.
    /// @param self The record.
    function audioKey(TokenRecord self) internal pure returns (uint256) {
        return TokenRecord.unwrap(self) >> AUDIO_KEY_SHIFT;
    }
}
