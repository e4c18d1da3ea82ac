// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev "ipfs://bafkrei" (CIDv1, raw codec 0x55, sha2-256) as a 14-byte big-endian integer.
uint256 constant CID_PREFIX_RAW = 0x697066733a2f2f6261666b726569;
/// @dev "ipfs://bafybei" (CIDv1, dag-pb codec 0x70, sha2-256) as a 14-byte big-endian integer.
uint256 constant CID_PREFIX_DAG_PB = 0x697066733a2f2f62616679626569;

/// @title IpfsCidUri
/// @notice The compact form SongNFT stores for the common metadata URI: a CIDv1 in lower-case
/// base32 over a sha2-256 digest, `ipfs://bafkrei…` (raw leaves) or `ipfs://bafybei…` (dag-pb).
/// @dev Such a URI is 66 characters: the 14-character prefix (codec and the CID header) and 52
/// base32 characters, the first with its 2 high bits zero (the tail of the header byte 0x20) and
/// the last with its 2 low bits zero (padding). Only strings of exactly this canonical form are
/// packed, so unpacking reproduces them byte for byte; anything else is stored verbatim.
///
/// Packing works on byte lanes, all 32 of a word at once. With A = characters 14..45 and B =
/// characters 46..65 (B's 12 lanes past the end counted as value 0), each lane turned into its
/// 5-bit base32 value:
///  - the commitment (32 bytes) is A | (B & 0x07 per lane) << 5 | 0x80: every lane holds one A
///    value in bits 0-4 and the low 3 bits of the B value of the same lane in bits 5-7; the last
///    lane's bit 7 (always free, B lane 31 is 0) is set so the commitment is never zero;
///  - `uriBits` (80 bits, kept beside the owner in the token's record slot, bits 176-255) holds
///    bits 3-4 of the B values: lanes 0-9 in place, lanes 10-19 moved to bits 1-2 of lanes 0-9
///    (a shift left by 78 bits).
/// `pack` builds both at mint; `decodeUri` is its inverse.
library IpfsCidUri {
    /// @notice Not a packed URI: the string is stored verbatim.
    uint8 internal constant KIND_NONE = 0;
    /// @notice `ipfs://bafkrei…`: CIDv1, raw codec (0x55), sha2-256.
    uint8 internal constant KIND_RAW = 1;
    /// @notice `ipfs://bafybei…`: CIDv1, dag-pb codec (0x70), sha2-256.
    uint8 internal constant KIND_DAG_PB = 2;

    /// @dev Length of every packed URI.
    uint256 internal constant URI_LENGTH = 66;

    /// @notice Packs `uri` if it is a canonical CIDv1 sha2-256 base32 URI.
    /// @return kind `KIND_RAW` or `KIND_DAG_PB`, or `KIND_NONE` (and zeros) for any other string.
    /// @return commitment Never zero for a packed URI (see the layout above).
    /// @return uriBits The 80 record bits, in place (bits 176-255).
    // solhint-disable-next-line function-max-lines
    function pack(string calldata uri) internal pure returns (uint256 kind, uint256 commitment, uint256 uriBits) {
        assembly ("memory-safe") {
            if eq(uri.length, 66) {
                let prefix := shr(144, calldataload(uri.offset))
                let uriKind := or(eq(prefix, CID_PREFIX_RAW), shl(1, eq(prefix, CID_PREFIX_DAG_PB)))
                let a := calldataload(add(uri.offset, 14))
                let b := or(
                    and(
                        calldataload(add(uri.offset, 46)),
                        0xffffffffffffffffffffffffffffffffffffffff000000000000000000000000
                    ),
                    0x616161616161616161616161
                )
                // Bit 7 of a lane of (x + 0x1f) ^ (x + 0x05) is set for 0x61 <= x <= 0x7a (a-z), of
                // (x + 0x4e) ^ (x + 0x48) for 0x32 <= x <= 0x37 (2-7); lanes must be below 0x80.
                let valid := and(
                    and(
                        or(
                            xor(
                                add(a, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                                add(a, 0x0505050505050505050505050505050505050505050505050505050505050505)
                            ),
                            xor(
                                add(a, 0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e),
                                add(a, 0x4848484848484848484848484848484848484848484848484848484848484848)
                            )
                        ),
                        or(
                            xor(
                                add(b, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f),
                                add(b, 0x0505050505050505050505050505050505050505050505050505050505050505)
                            ),
                            xor(
                                add(b, 0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e),
                                add(b, 0x4848484848484848484848484848484848484848484848484848484848484848)
                            )
                        )
                    ),
                    0x8080808080808080808080808080808080808080808080808080808080808080
                )
                // Character values: a-z (bit 6 set) are x - 0x61, 2-7 are x - 0x18.
                a := sub(
                    a,
                    add(
                        0x1818181818181818181818181818181818181818181818181818181818181818,
                        mul(and(shr(6, a), 0x0101010101010101010101010101010101010101010101010101010101010101), 0x49)
                    )
                )
                b := sub(
                    b,
                    add(
                        0x1818181818181818181818181818181818181818181818181818181818181818,
                        mul(and(shr(6, b), 0x0101010101010101010101010101010101010101010101010101010101010101), 0x49)
                    )
                )
                // Canonical form: first value below 8, last value a multiple of 4.
                if and(
                    and(gt(uriKind, 0), eq(valid, 0x8080808080808080808080808080808080808080808080808080808080808080)),
                    iszero(or(and(a, shl(248, 0x18)), and(b, shl(96, 3))))
                ) {
                    kind := uriKind
                    commitment := or(or(a, shl(5, and(b, 0x0707070707070707070707070707070707070707070707070707070707070707))), 0x80)
                    uriBits := or(
                        and(b, 0x1818181818181818181800000000000000000000000000000000000000000000),
                        shl(78, and(b, 0x0000000000000000000018181818181818181818000000000000000000000000))
                    )
                }
            }
        }
    }

    /// @notice Rebuilds the URI from what SongNFT.mint stored for it.
    /// @param kind `KIND_RAW` or `KIND_DAG_PB`.
    /// @param commitment The value kept under the token's audio hash.
    /// @param uriBits The 80 bits kept in the token record (its bits 176-255, here in place).
    function decodeUri(uint256 kind, uint256 commitment, uint256 uriBits) internal pure returns (string memory uri) {
        uint256 prefix = kind == KIND_RAW ? CID_PREFIX_RAW : CID_PREFIX_DAG_PB;
        uri = new string(URI_LENGTH);
        assembly ("memory-safe") {
            // Values to characters, per lane: v < 26 -> 'a' + v, else '2' + (v - 26) = v + 0x18.
            function chars(values) -> out {
                let isDigit := shr(7, and(add(values, 0x6666666666666666666666666666666666666666666666666666666666666666), 0x8080808080808080808080808080808080808080808080808080808080808080))
                out := sub(add(values, 0x6161616161616161616161616161616161616161616161616161616161616161), mul(isDigit, 0x49))
            }
            let a := and(commitment, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f)
            let b := or(
                and(shr(5, commitment), 0x0707070707070707070707070707070707070707000000000000000000000000),
                or(
                    and(uriBits, 0x1818181818181818181800000000000000000000000000000000000000000000),
                    shr(78, and(uriBits, 0x0606060606060606060600000000000000000000000000000000000000000000))
                )
            )
            let out := add(uri, 0x20)
            mstore(out, shl(144, prefix))
            mstore(add(out, 14), chars(a))
            mstore(add(out, 46), and(chars(b), 0xffffffffffffffffffffffffffffffffffffffff000000000000000000000000))
        }
    }
}
