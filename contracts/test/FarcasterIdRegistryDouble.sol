// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title FarcasterIdRegistryDouble
/// @notice Test-only: answers the reads Sign In With Farcaster makes of Farcaster's IdRegistry on
/// OP Mainnet (0x00000000Fc6c5F01Fc30151999387Bb99A9f489b): `idOf(custody)` and `custodyOf(fid)`,
/// with the real contract's rule that an address holds at most one fid. Tests register fids and
/// move custody, which the real registry does through signed transfers; anyone may call them here.
/// It is a double, placed at the real address on a local OP chain, never deployed outside tests.
contract FarcasterIdRegistryDouble {
    /// @notice The fid an address holds as custody, 0 when none.
    mapping(address custody => uint256 fid) public idOf;
    /// @notice The custody address of a fid, zero when it was never registered.
    mapping(uint256 fid => address custody) public custodyOf;

    /// @notice The last fid registered.
    uint256 public idCounter;

    /// @notice A fid was registered to `to` (the real registry's event).
    /// @param to Its custody address.
    /// @param id The fid.
    /// @param recovery Its recovery address (none here).
    event Register(address indexed to, uint256 indexed id, address recovery); // solhint-disable-line gas-indexed-events

    /// @notice A fid's custody moved (the real registry's event).
    /// @param from The old custody address.
    /// @param to The new one.
    /// @param id The fid.
    event Transfer(address indexed from, address indexed to, uint256 indexed id);

    /// @notice `custody` already holds a fid.
    error HasId();
    /// @notice The fid was never registered.
    error HasNoId();

    /// @notice Registers the next fid to `custody`.
    /// @param custody The custody address.
    /// @return fid The new fid.
    function register(address custody) external returns (uint256 fid) {
        if (idOf[custody] != 0) revert HasId();
        fid = ++idCounter;
        idOf[custody] = fid;
        custodyOf[fid] = custody;
        emit Register(custody, fid, address(0));
    }

    /// @notice Moves `fid`'s custody to `to`, as a transfer or a recovery does.
    /// @param fid The fid.
    /// @param to The new custody address (it must hold no fid).
    function transfer(uint256 fid, address to) external {
        address from = custodyOf[fid];
        if (from == address(0)) revert HasNoId();
        if (idOf[to] != 0) revert HasId();
        delete idOf[from];
        idOf[to] = fid;
        custodyOf[fid] = to;
        emit Transfer(from, to, fid);
    }
}
