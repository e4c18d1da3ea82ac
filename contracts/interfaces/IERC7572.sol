// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IERC7572
/// @notice ERC-7572: contract-level metadata, a URI to a JSON document describing the contract.
interface IERC7572 {
    /// @notice The contract-level metadata changed.
    event ContractURIUpdated();

    /// @notice The URI of the contract-level metadata.
    function contractURI() external view returns (string memory);
}
