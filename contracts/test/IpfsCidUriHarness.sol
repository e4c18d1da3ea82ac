// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IpfsCidUri} from "../libraries/IpfsCidUri.sol";

/// @title IpfsCidUriHarness
/// @notice Test-only: runs the URI packer over many byte strings in one call, for property tests.
contract IpfsCidUriHarness {
    /// @notice For each input: the packed kind (0: stored verbatim) and, when packed, the URI
    /// decoded back from the digest. Inputs are arbitrary bytes (`string` and `bytes` share an ABI
    /// encoding, and SongNFT.mint takes any bytes as its string).
    /// @param uris The inputs.
    /// @return kinds Per input, the packed kind.
    /// @return decoded Per input, the URI decoded from its digest (empty when not packed).
    function packMany(bytes[] calldata uris) external pure returns (uint256[] memory kinds, bytes[] memory decoded) {
        kinds = new uint256[](uris.length);
        decoded = new bytes[](uris.length);
        for (uint256 i = 0; i < uris.length; ++i) {
            (uint256 kind, uint256 digest) = IpfsCidUri.pack(string(uris[i]));
            kinds[i] = kind;
            if (kind != IpfsCidUri.KIND_NONE) decoded[i] = bytes(IpfsCidUri.decodeUri(kind, digest));
        }
    }
}
