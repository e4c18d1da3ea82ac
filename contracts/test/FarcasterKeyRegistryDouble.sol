// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title FarcasterKeyRegistryDouble
/// @notice Test-only: answers `keyDataOf(fid, key)` as Farcaster's KeyRegistry on OP Mainnet
/// (0x00000000Fc1237824fb747aBDE0FF18990E59b7e) does, for the keys Sign In With Farcaster reads:
/// auth addresses (key type 2, the address ABI-encoded as the key). Tests add and remove keys,
/// which the real registry does through the fid's custody; anyone may call them here. It is a
/// double, placed at the real address on a local OP chain, never deployed outside tests.
contract FarcasterKeyRegistryDouble {
    /// @notice A key's state, in the real registry's order.
    enum KeyState {
        NULL,
        ADDED,
        REMOVED
    }

    /// @notice What the registry keeps of a key.
    /// @param state Whether it was added or removed.
    /// @param keyType 1 for Ed25519 signers, 2 for auth addresses.
    struct KeyData {
        KeyState state;
        uint32 keyType;
    }

    mapping(uint256 fid => mapping(bytes key => KeyData data)) private _keys;

    /// @notice A key was added for a fid (the real registry's event, without its metadata).
    /// @param fid The fid.
    /// @param keyType The key's type.
    /// @param key The key.
    event Add(uint256 indexed fid, uint32 indexed keyType, bytes indexed key);

    /// @notice A key was removed from a fid.
    /// @param fid The fid.
    /// @param key The key.
    event Remove(uint256 indexed fid, bytes indexed key);

    /// @notice Adds `key` of `keyType` for `fid`.
    /// @param fid The fid.
    /// @param keyType The key's type.
    /// @param key The key (an auth address: `abi.encode(address)`).
    function add(uint256 fid, uint32 keyType, bytes calldata key) external {
        _keys[fid][key] = KeyData({state: KeyState.ADDED, keyType: keyType});
        emit Add(fid, keyType, key);
    }

    /// @notice Removes `key` from `fid`.
    /// @param fid The fid.
    /// @param key The key.
    function remove(uint256 fid, bytes calldata key) external {
        _keys[fid][key].state = KeyState.REMOVED;
        emit Remove(fid, key);
    }

    /// @notice The state and type of `key` for `fid`.
    /// @param fid The fid.
    /// @param key The key.
    /// @return The key's data (state NULL when it was never added).
    function keyDataOf(uint256 fid, bytes calldata key) external view returns (KeyData memory) {
        return _keys[fid][key];
    }
}
