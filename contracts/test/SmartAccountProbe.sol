// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title SmartAccountProbe
/// @notice Test-only: a minimal smart-contract wallet in the style of Coinbase Smart Wallet, to
/// prove that such wallets sign in (ERC-1271 when deployed, ERC-6492 before) and mint songs as
/// `msg.sender`. One EOA owner; it signs the account's replay-safe EIP-712 wrapping of a hash, so
/// a signature made for one account is not valid for another account of the same owner.
contract SmartAccountProbe is IERC1271, EIP712 {
    /// @notice The EIP-712 type the owner signs: the hash the account is asked to approve.
    bytes32 public constant MESSAGE_TYPEHASH = keccak256("AccountMessage(bytes32 hash)");

    /// @dev The EOA allowed to sign for and act through this account.
    address private immutable OWNER;

    /// @notice A call from someone other than the owner.
    error NotOwner(address caller);

    /// @notice Creates the account of `owner_`.
    /// @param owner_ The EOA that controls the account.
    constructor(address owner_) EIP712("SmartAccountProbe", "1") {
        OWNER = owner_;
    }

    /// @notice The EOA allowed to sign for and act through this account.
    /// @return The owner.
    function owner() external view returns (address) {
        return OWNER;
    }

    /// @notice Calls `target` with `data` and `value` from this account (the account is `msg.sender`).
    /// @param target The contract to call.
    /// @param value Wei sent with the call.
    /// @param data The calldata.
    /// @return result The call's return data; a revert is passed on unchanged.
    function execute(address target, uint256 value, bytes calldata data) external payable returns (bytes memory result) {
        if (msg.sender != OWNER) revert NotOwner(msg.sender);
        bool success;
        (success, result) = target.call{value: value}(data);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    /// @notice ERC-1271: whether the owner signed this account's replay-safe wrapping of `hash`.
    /// @param hash The hash the signature is for (for a SIWE message, its EIP-191 hash).
    /// @param signature The owner's 65-byte ECDSA signature of `replaySafeHash(hash)`.
    /// @return magicValue `0x1626ba7e` when valid, `0xffffffff` otherwise.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4 magicValue) {
        (address signer, ECDSA.RecoverError failure, ) = ECDSA.tryRecoverCalldata(replaySafeHash(hash), signature);
        return failure == ECDSA.RecoverError.NoError && signer == OWNER ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }

    /// @notice The EIP-712 digest the owner signs to approve `hash` for this account on this chain.
    /// @param hash The hash to approve.
    /// @return The typed-data digest.
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(MESSAGE_TYPEHASH, hash)));
    }

    /// @notice Accepts ETH.
    receive() external payable {}
}
