// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {SmartAccountProbe} from "./SmartAccountProbe.sol";

/// @title SmartAccountProbeFactory
/// @notice Test-only: deploys SmartAccountProbe accounts at CREATE2 addresses known before they
/// exist, as smart-wallet factories do, so an undeployed account can sign (ERC-6492 carries this
/// factory and the `createAccount` calldata).
contract SmartAccountProbeFactory {
    /// @notice An account was deployed.
    /// @param account The account's address.
    /// @param owner The EOA that controls it.
    /// @param salt The CREATE2 salt.
    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    /// @notice Deploys the account of `owner` at `salt`, or returns it when it exists (so replaying
    /// an ERC-6492 deployment is harmless).
    /// @param owner The EOA that controls the account.
    /// @param salt The CREATE2 salt.
    /// @return account The account's address.
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length != 0) return account;
        account = address(new SmartAccountProbe{salt: salt}(owner));
        emit AccountCreated(account, owner, salt);
    }

    /// @notice The address `createAccount(owner, salt)` deploys to.
    /// @param owner The EOA that controls the account.
    /// @param salt The CREATE2 salt.
    /// @return The counterfactual address.
    function accountAddress(address owner, bytes32 salt) public view returns (address) {
        return Create2.computeAddress(salt, keccak256(abi.encodePacked(type(SmartAccountProbe).creationCode, abi.encode(owner))));
    }
}
