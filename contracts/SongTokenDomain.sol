// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";

/// @title SongTokenDomain
/// @notice ERC-5267 `eip712Domain()` for a token whose EIP-712 domain is
/// `{ name: _domainName(), version: "1", chainId, verifyingContract: this }`, with the output names
/// the ERC gives (clients such as ethers read the domain by field name). A base of its own, as
/// OpenZeppelin's EIP712 is, so its `name` output shadows no `name()` function.
abstract contract SongTokenDomain is IERC5267 {
    /// @notice ERC-5267: the fields of the EIP-712 domain.
    /// @return fields `0x0f`: name, version, chain id and verifying contract are set.
    /// @return name The domain name, `_domainName()` (the token's `name()`).
    /// @return version "1".
    /// @return chainId The current chain id.
    /// @return verifyingContract This token's address.
    /// @return salt Unused (zero).
    /// @return extensions None.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", _domainName(), "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// @dev The EIP-712 domain name.
    function _domainName() internal view virtual returns (string memory);
}
