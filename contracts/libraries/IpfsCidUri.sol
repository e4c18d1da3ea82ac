// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev "ipfs://bafkrei" (CIDv1, raw codec 0x55, sha2-256) as a 14-byte big-endian integer.
uint256 constant CID_PREFIX_RAW = 0x697066733a2f2f6261666b726569;
/// @dev "ipfs://bafybei" (CIDv1, dag-pb codec 0x70, sha2-256) as a 14-byte big-endian integer.
uint256 constant CID_PREFIX_DAG_PB = 0x697066733a2f2f62616679626569;

/// @title IpfsCidUri
/// @notice The compact form SongNFT stores for the common metadata URI: a CIDv1 in lower-case
/// base32 over a sha2-256 digest, `ipfs://bafkrei…` (raw leaves) or `ipfs://bafybei…` (dag-pb).
/// Such a URI is its kind (raw or dag-pb) plus the 32-byte digest, and that is what is stored.
/// @dev Such a URI is 66 characters: the 14-character prefix (codec and the CID header) and 52
/// base32 characters = 260 bits: the 2 low bits of the header byte 0x20 (zero), the 256-bit
/// digest, 2 padding bits (zero). Only strings of exactly this canonical form are packed (first
/// character value below 8, last a multiple of 4, lower case, every byte ASCII), so decoding
/// reproduces them byte for byte; anything else is stored verbatim by SongNFT.
///
/// Both directions work on whole words. Characters 14..45 (A) and 46..65 (B, its 12 lanes past
/// the end counted as value 0) are loaded as 32 byte lanes each and turned into their 5-bit
/// base32 values, all lanes at once; `_compact` then squeezes the 32 five-bit lanes of a word
/// into 160 contiguous bits in five mask-and-shift steps (pairs of lanes, then pairs of pairs…),
/// and `_expand` is its inverse. digest = A's 160 bits << 98 | B's 100 bits >> 2.
library IpfsCidUri {
    /// @notice Not a packed URI: the string is stored verbatim.
    uint8 internal constant KIND_NONE = 0;
    /// @notice `ipfs://bafkrei…`: CIDv1, raw codec (0x55), sha2-256.
    uint8 internal constant KIND_RAW = 1;
    /// @notice `ipfs://bafybei…`: CIDv1, dag-pb codec (0x70), sha2-256.
    uint8 internal constant KIND_DAG_PB = 2;

    /// @dev Length of every packed URI.
    uint256 internal constant URI_LENGTH = 66;

    /// @notice Packs `uri` if it is a canonical CIDv1 sha2-256 base32 URI over a non-zero digest.
    /// @return kind `KIND_RAW` or `KIND_DAG_PB`, or `KIND_NONE` (and a zero digest) for any other
    /// string. The all-zero digest is left to the verbatim path so a packed digest is never zero.
    /// @return digest The CID's sha2-256 digest.
    /// @param uri The URI to pack.
    function pack(string calldata uri) internal pure returns (uint256 kind, uint256 digest) { // solhint-disable-line function-max-lines
        assembly ("memory-safe") {
            // 32 five-bit values in byte lanes -> 160 contiguous bits, lane 0 highest.
            function compact(x) -> y {
                y := or(
                    and(x, 0x001f001f001f001f001f001f001f001f001f001f001f001f001f001f001f001f),
                    and(shr(3, x), 0x03e003e003e003e003e003e003e003e003e003e003e003e003e003e003e003e0)
                )
                y := or(
                    and(y, 0x000003ff000003ff000003ff000003ff000003ff000003ff000003ff000003ff),
                    and(shr(6, y), 0x000ffc00000ffc00000ffc00000ffc00000ffc00000ffc00000ffc00000ffc00)
                )
                y := or(
                    and(y, 0x00000000000fffff00000000000fffff00000000000fffff00000000000fffff),
                    and(shr(12, y), 0x000000fffff00000000000fffff00000000000fffff00000000000fffff00000)
                )
                y := or(
                    and(y, 0x0000000000000000000000ffffffffff0000000000000000000000ffffffffff),
                    and(shr(24, y), 0x000000000000ffffffffff0000000000000000000000ffffffffff0000000000)
                )
                y := or(
                    and(y, 0x00000000000000000000000000000000000000000000ffffffffffffffffffff),
                    and(shr(48, y), 0x000000000000000000000000ffffffffffffffffffff00000000000000000000)
                )
            }
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
                // (x + 0x4e) ^ (x + 0x48) for 0x32 <= x <= 0x37 (2-7), provided every lane is below
                // 0x80: a lane with bit 7 set would carry into its neighbour and pass as something
                // else (U+1CB2 packs as "a22"), so such a string is never packed.
                let ascii := iszero(and(or(a, b), 0x8080808080808080808080808080808080808080808080808080808080808080))
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
                // Canonical form: first value below 8, last value a multiple of 4. Those 2 + 2 zero
                // bits are the ones the shifts below drop.
                if and(
                    and(
                        and(gt(uriKind, 0), ascii),
                        eq(valid, 0x8080808080808080808080808080808080808080808080808080808080808080)
                    ),
                    iszero(or(and(a, shl(248, 0x18)), and(b, shl(96, 3))))
                ) {
                    digest := or(shl(98, compact(a)), shr(62, compact(b)))
                    kind := mul(uriKind, iszero(iszero(digest)))
                    digest := mul(digest, iszero(iszero(kind)))
                }
            }
        }
    }

    /// @notice Rebuilds the URI that {pack} packed.
    /// @param kind `KIND_RAW` or `KIND_DAG_PB`.
    /// @param digest The CID's sha2-256 digest.
    /// @return uri The `ipfs://` URI of the CIDv1 (base32).
    function decodeUri(uint256 kind, uint256 digest) internal pure returns (string memory uri) {
        uint256 prefix = kind == KIND_RAW ? CID_PREFIX_RAW : CID_PREFIX_DAG_PB;
        uri = new string(URI_LENGTH);
        assembly ("memory-safe") {
            // Inverse of `compact` in {pack}: 160 bits -> 32 five-bit values in byte lanes.
            function expand(x) -> y {
                y := or(
                    and(x, 0x00000000000000000000000000000000000000000000ffffffffffffffffffff),
                    and(shl(48, x), 0x000000000000ffffffffffffffffffff00000000000000000000000000000000)
                )
                y := or(
                    and(y, 0x0000000000000000000000ffffffffff0000000000000000000000ffffffffff),
                    and(shl(24, y), 0x000000ffffffffff0000000000000000000000ffffffffff0000000000000000)
                )
                y := or(
                    and(y, 0x00000000000fffff00000000000fffff00000000000fffff00000000000fffff),
                    and(shl(12, y), 0x000fffff00000000000fffff00000000000fffff00000000000fffff00000000)
                )
                y := or(
                    and(y, 0x000003ff000003ff000003ff000003ff000003ff000003ff000003ff000003ff),
                    and(shl(6, y), 0x03ff000003ff000003ff000003ff000003ff000003ff000003ff000003ff0000)
                )
                y := or(
                    and(y, 0x001f001f001f001f001f001f001f001f001f001f001f001f001f001f001f001f),
                    and(shl(3, y), 0x1f001f001f001f001f001f001f001f001f001f001f001f001f001f001f001f00)
                )
            }
            // Values to characters, per lane: v < 26 -> 'a' + v, else '2' + (v - 26) = v + 0x18.
            function chars(values) -> out {
                let isDigit := shr(7, and(add(values, 0x6666666666666666666666666666666666666666666666666666666666666666), 0x8080808080808080808080808080808080808080808080808080808080808080))
                out := sub(add(values, 0x6161616161616161616161616161616161616161616161616161616161616161), mul(isDigit, 0x49))
            }
            let out := add(uri, 0x20)
            mstore(out, shl(144, prefix))
            mstore(add(out, 14), chars(expand(shr(98, digest))))
            mstore(
                add(out, 46),
                and(
                    chars(expand(and(shl(62, digest), 0xffffffffffffffffffffffffffffffffffffffff))),
                    0xffffffffffffffffffffffffffffffffffffffff000000000000000000000000
                )
            )
        }
    }
}
