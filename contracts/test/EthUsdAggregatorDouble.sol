// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title EthUsdAggregatorDouble
/// @notice Test-only: an ETH / USD price feed with Chainlink's AggregatorV3Interface reads
/// (`decimals`, `description`, `latestRoundData`), so the oracle's code path to the real feed on
/// Base (0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70) runs on the local chain, which has none.
/// Anyone may set a round: it is a double, never deployed outside tests.
contract EthUsdAggregatorDouble {
    /// @notice Answers carry 8 decimals, as Chainlink's USD feeds do.
    uint8 private constant DECIMALS = 8;

    uint80 private _roundId;
    int256 private _answer;
    uint256 private _updatedAt;

    /// @notice A new round, as Chainlink's aggregators log it.
    /// @param current The new answer.
    /// @param roundId Its round.
    /// @param updatedAt Its time.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt); // solhint-disable-line gas-indexed-events

    /// @notice The answers' decimals.
    /// @return 8, as Chainlink's USD feeds.
    function decimals() external pure returns (uint8) {
        return DECIMALS;
    }

    /// @notice What the feed prices.
    /// @return The pair, as Chainlink names it.
    function description() external pure returns (string memory) {
        return "ETH / USD";
    }

    /// @notice Starts a new round with `answer`, stamped `updatedAt` (a past time makes a stale round).
    /// @param answer USD per ETH times 10^8.
    /// @param updatedAt The round's time (unix seconds).
    function setRound(int256 answer, uint256 updatedAt) external {
        ++_roundId;
        _answer = answer;
        _updatedAt = updatedAt;
        emit AnswerUpdated(answer, _roundId, updatedAt);
    }

    /// @notice The latest round, in AggregatorV3Interface's shape.
    /// @return roundId The round.
    /// @return answer USD per ETH times 10^8.
    /// @return startedAt When the round started (its update time here).
    /// @return updatedAt When it was answered.
    /// @return answeredInRound The round it was answered in.
    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_roundId, _answer, _updatedAt, _updatedAt, _roundId);
    }
}
