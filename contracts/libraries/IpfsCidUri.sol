// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IpfsCidUri
/// @notice Packs the common `ipfs://` metadata URI, a CIDv1 in lower-case base32 over a sha2-256
/// digest (`ipfs://bafkrei…` for raw leaves, `ipfs://bafybei…` for dag-pb), into its 32-byte digest
/// plus a kind, and rebuilds the identical string from them.
/// @dev Such a URI is 66 characters: "ipfs://b" + base32 of <0x01, codec, 0x12, 0x20, digest>.
/// The 14-character prefix fixes the codec and the first 30 bits; the last 52 characters carry
/// 2 prefix bits (always 0), the 256 digest bits and 2 padding bits (always 0). `decode` accepts
/// only strings that `encode` reproduces byte for byte; anything else is reported as `KIND_NONE`
/// and must be stored verbatim by the caller.
library IpfsCidUri {
    /// @notice Not a canonical CIDv1 sha2-256 base32 URI.
    uint8 internal constant KIND_NONE = 0;
    /// @notice `ipfs://bafkrei…`: CIDv1, raw codec (0x55), sha2-256.
    uint8 internal constant KIND_RAW = 1;
    /// @notice `ipfs://bafybei…`: CIDv1, dag-pb codec (0x70), sha2-256.
    uint8 internal constant KIND_DAG_PB = 2;

    /// @dev Length of every URI this library packs.
    uint256 internal constant URI_LENGTH = 66;

    /// @dev "ipfs://bafkrei" and "ipfs://bafybei" as 14-byte big-endian integers.
    uint256 private constant _PREFIX_RAW = 0x697066733a2f2f6261666b726569;
    uint256 private constant _PREFIX_DAG_PB = 0x697066733a2f2f62616679626569;

    /// @dev RFC 4648 base32 alphabet, lower case: byte i is the character for value i.
    bytes32 private constant _ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

    /// @notice Splits `uri` into its CID kind and sha2-256 digest.
    /// @return kind `KIND_RAW` or `KIND_DAG_PB` when `uri` is canonical, else `KIND_NONE`.
    /// @return digest The multihash digest (zero when `kind` is `KIND_NONE`).
    // solhint-disable-next-line function-max-lines
    function decode(string calldata uri) internal pure returns (uint8 kind, bytes32 digest) {
        assembly ("memory-safe") {
            // Each step below works on all 32 byte lanes of a word at once (SWAR): a valid character
            // is a-z (values 0-25) or 2-7 (values 26-31).
            function lanes(w) -> values, valid {
                let high := 0x8080808080808080808080808080808080808080808080808080808080808080
                // Bit 7 of lane i of `atLeastX` is set when byte i >= X (bytes are < 0x80 if valid,
                // so the additions never carry into the next lane for a valid word).
                let atLeast61 := and(add(w, 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f), high)
                let atLeast7b := and(add(w, 0x0505050505050505050505050505050505050505050505050505050505050505), high)
                let atLeast32 := and(add(w, 0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e), high)
                let atLeast38 := and(add(w, 0x4848484848484848484848484848484848484848484848484848484848484848), high)
                valid := and(
                    iszero(and(w, high)), eq(or(xor(atLeast61, atLeast7b), xor(atLeast32, atLeast38)), high)
                )
                // letters: c - 0x61; digits: c - 0x32 + 26 = c - 0x18.
                values := sub(
                    sub(w, 0x1818181818181818181818181818181818181818181818181818181818181818),
                    mul(shr(7, atLeast61), 0x49)
                )
            }
            // Concatenates the 5-bit values of 32 byte lanes into one 160-bit number, lane 0 first.
            function pack(v) -> packed {
                let h := and(v, 0xff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00)
                v := or(shr(3, h), xor(v, h))
                h := and(v, 0xffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000)
                v := or(shr(6, h), xor(v, h))
                h := and(v, 0xffffffff00000000ffffffff00000000ffffffff00000000ffffffff00000000)
                v := or(shr(12, h), xor(v, h))
                h := and(v, 0xffffffffffffffff0000000000000000ffffffffffffffff0000000000000000)
                v := or(shr(24, h), xor(v, h))
                h := and(v, 0xffffffffffffffffffffffffffffffff00000000000000000000000000000000)
                packed := or(shr(48, h), xor(v, h))
            }

            if eq(uri.length, 66) {
                let prefix := shr(144, calldataload(uri.offset))
                let prefixKind := add(eq(prefix, _PREFIX_RAW), shl(1, eq(prefix, _PREFIX_DAG_PB)))
                if prefixKind {
                    // Characters 14..45, then 46..65 with the 12 lanes past the end set to 'a' (0).
                    let valuesA, validA := lanes(calldataload(add(uri.offset, 14)))
                    let valuesB, validB := lanes(
                        or(
                            and(
                                calldataload(add(uri.offset, 46)),
                                0xffffffffffffffffffffffffffffffffffffffff000000000000000000000000
                            ),
                            0x616161616161616161616161
                        )
                    )
                    let packedA := pack(valuesA)
                    let packedB := pack(valuesB)
                    // The 2 leading bits belong to the prefix byte 0x20, the 2 trailing ones are padding.
                    if and(and(validA, validB), iszero(or(shr(158, packedA), and(packedB, shl(60, 3))))) {
                        kind := prefixKind
                        digest := or(shl(98, packedA), shr(62, packedB))
                    }
                }
            }
        }
    }

    /// @notice Rebuilds the URI `decode` split into (`kind`, `digest`).
    /// @param kind `KIND_RAW` or `KIND_DAG_PB`.
    function encode(uint8 kind, bytes32 digest) internal pure returns (string memory uri) {
        uint256 prefix = kind == KIND_RAW ? _PREFIX_RAW : _PREFIX_DAG_PB;
        uri = new string(URI_LENGTH);
        assembly ("memory-safe") {
            let out := add(uri, 0x20)
            mstore(out, shl(144, prefix))
            // Character 14 + i holds digest bits [253 - 5i, 258 - 5i) of the 258-bit value
            // <00, digest>; the last one holds the 3 lowest digest bits followed by 2 zero bits.
            for { let i := 0 } lt(i, 51) { i := add(i, 1) } {
                mstore8(add(out, add(14, i)), byte(and(shr(sub(253, mul(5, i)), digest), 31), _ALPHABET))
            }
            mstore8(add(out, 65), byte(and(shl(2, digest), 31), _ALPHABET))
        }
    }
}
