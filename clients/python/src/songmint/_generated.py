# Generated from the oracle's /openapi.json by `npm run python:generate`.
# Do not edit: test/clients/python-generated.test.ts fails on drift, and the pytest suite
# (clients/python/tests/test_openapi_coverage.py) when a running oracle serves another document.
"""Types and operations of the Songmint API, generated from its OpenAPI document."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Final, Literal, NotRequired, TypeAlias, TypedDict, cast, overload

from ._operation import Operation, ServerSentEvent

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"

#: `info.version` of the document this module was generated from: the API's version, which the
#: clients' versions follow (docs/clients.md, "Versions").
API_VERSION: Final = "1.0.0"

#: Every code the API answers with (docs/api.md, "Errors").
API_ERROR_CODES: Final[tuple[str, ...]] = (
    "GEN_001",
    "GEN_002",
    "GEN_003",
    "GEN_004",
    "GEN_005",
    "SIGN_001",
    "SIGN_002",
    "SIGN_003",
    "SIGN_004",
    "SIGN_005",
    "SIGN_006",
    "SIGN_007",
    "SIGN_008",
    "RATE_001",
    "RATE_002",
    "IDEM_001",
    "IDEM_002",
    "PREVIEW_EXPIRED",
    "EDIT_001",
    "EDIT_002",
    "EDIT_003",
    "EDIT_004",
    "EDIT_005",
    "UPLOAD_001",
    "UPLOAD_002",
    "UPLOAD_003",
    "UPLOAD_004",
    "UPLOAD_005",
    "UPLOAD_006",
    "UPLOAD_007",
    "LIBRARY_001",
    "LIBRARY_002",
    "LIBRARY_003",
    "LIBRARY_004",
    "STORAGE_001",
    "VALIDATION_ERROR",
    "PAYLOAD_TOO_LARGE",
    "BODY_TOO_SLOW",
    "AUTH_ERROR",
    "FORBIDDEN",
    "NOT_FOUND",
    "CONFLICT",
    "SERVICE_UNAVAILABLE",
    "INTERNAL_ERROR",
)

class AuthNonce(TypedDict):
    nonce: str
    expires_at: str
    # The SIWE message must name this domain.
    domain: str
    # The SIWE message URI must start with this origin.
    uri: str
    chain_id: Literal[8453]


class AuthVerifyRequest(TypedDict):
    # EIP-4361 message text.
    message: str
    # The wallet's EIP-191 signature of `message`: 65 bytes from an EOA; any length from a smart
    # wallet (ERC-1271, or ERC-6492 wrapped while undeployed).
    signature: str
    # Farcaster fid to link; accepted only when the IdRegistry confirms it.
    social_fid: NotRequired[int | str]


class CoinPrice(TypedDict):
    """Null only in the instant before the launch's Initialize is indexed."""

    # ETH per 1,000,000 tokens at the pool price, decimal.
    eth_per_million_tokens: str
    # The same in wei, rounded down.
    wei_per_million_tokens: str
    # Change against the price 24 hours ago (the last swap before then; the launch price when
    # nothing traded before then or the launch was since), percent with two places; null before
    # the launch price is indexed.
    change_24h_percent: str | None
    # The price in US dollars per 1,000,000 tokens. Null unless an ETH/USD feed is configured.
    usd_per_million_tokens: str | None
    # Block of the swap (or launch) that set the price.
    block_number: str


class CoinMarketCap(TypedDict):
    # Price times supply. Wei.
    eth: str
    # US dollars, two places. Null unless an ETH/USD feed is configured.
    usd: str | None


class CoinVolume24h(TypedDict):
    # Wei of ETH through the pool in the last 24 hours (|amount0|, before the hook fee).
    eth: str
    trades: int
    # US dollars. Null unless an ETH/USD feed is configured.
    usd: str | None


class CoinPool(TypedDict):
    """The pool as a seller meets it now, read from the chain at answer time."""

    # Wei the pool's locked position holds now: all the ETH every holder together can take out by
    # selling, before fees (a song pool starts with tokens only and pays out only what buyers paid
    # in).
    eth: str | None
    # US dollars of `eth`. Null unless an ETH/USD feed is configured.
    usd: str | None
    # Block of the chain read; null (with `eth`) when the chain could not be read.
    block_number: str | None


class CoinAllocationFields(TypedDict):
    """The creator's launch allocation, read from the vault now: what a buyer must know, since
    claimed tokens can be sold into the pool. Null when the launch took none, or the chain could
    not be read."""

    # Who the allocation goes to (EIP-55): the launcher named it.
    recipient: str
    # Tokens the allocation gives its recipient in all.
    total: str
    # Tokens vested now, the claimed ones included (nothing before the cliff, then linearly).
    vested: str
    # Tokens not vested yet: `total - vested`.
    unvested: str
    # Tokens already minted to the recipient (and free to sell).
    claimed: str
    # What `claimAllocation` pays now: `vested - claimed`.
    claimable: str
    # Until then nothing vests: the creator cannot sell any of it into the pool.
    cliff_end: str
    # From then everything has vested.
    vesting_end: str
    # Block of the vault read.
    block_number: str


# The creator's launch allocation, read from the vault now: what a buyer must know, since claimed
# tokens can be sold into the pool. Null when the launch took none, or the chain could not be
# read.
CoinAllocation: TypeAlias = 'CoinAllocationFields | None'


class CoinHoldersTopItem(TypedDict):
    address: str
    # The display name this address set (PATCH /v1/user/profile), to link to its profile; null:
    # none.
    name: str | None
    # Token base units.
    balance: str
    # Of the supply, percent with four places.
    share_percent: str


class CoinHolders(TypedDict):
    # Addresses holding any of the token, leaving out Uniswap's PoolManager (the pool's own
    # tokens) and SongVault (collected LP fees not yet claimed).
    count: int
    # The 20 largest balances, from the token's Transfer logs (the PoolManager and the vault left
    # out).
    top: list[CoinHoldersTopItem]


class CoinCreatorEarningsCredited(TypedDict):
    # Wei credited by collectFees.
    eth: str
    # Token units credited (the LP fee of sales).
    token: str


class CoinCreatorEarnings(TypedDict):
    """The creator's earnings so far; LP fees count once collected (Uniswap v4 computes them only
    when the position is touched)."""

    # Who the creator share goes to now (the creator until the payout role is handed on).
    recipient: str
    credited: CoinCreatorEarningsCredited
    # The creator share of the hook fees not collected yet (collectFees splits them), wei.
    uncollected_swap_fees_eth: str
    # Credited plus uncollected, wei: what the song has earned its creator side in ETH so far.
    total_eth: str
    # The same in US dollars. Null unless an ETH/USD feed is configured.
    total_usd: str | None


class CoinEthUsd(TypedDict):
    """The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale)."""

    # US dollars per ETH, as the feed answered.
    price: str
    # The feed round's time.
    updated_at: str
    # The Chainlink ETH/USD feed read (AggregatorV3Interface).
    feed: str


class Coin(TypedDict):
    song_id: str
    chain_id: int
    # The song's ERC-20 (EIP-55).
    token: str
    name: str
    symbol: str
    # The song's title from the metadata this oracle published.
    title: str | None
    image: str | None
    # The creator SongLaunched named (EIP-55).
    creator: str
    # The display name the minter set (PATCH /v1/user/profile); null: none.
    creator_name: str | None
    launched_at: str
    # Token supply in base units (18 decimals): the pool share plus the allocation, 1,000,000,000
    # tokens.
    supply: str
    # Null only in the instant before the launch's Initialize is indexed.
    price: CoinPrice | None
    market_cap: CoinMarketCap | None
    volume_24h: CoinVolume24h
    trades_total: int
    pool: CoinPool
    allocation: CoinAllocation
    holders: CoinHolders
    # The creator's earnings so far; LP fees count once collected (Uniswap v4 computes them only
    # when the position is touched).
    creator_earnings: CoinCreatorEarnings
    # The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale).
    eth_usd: CoinEthUsd | None
    trades_url: str
    page_url: str
    indexed_through_block: str | None


class CoinTradeLaunchFee(TypedDict):
    """Null when no fee mint was indexed next to the swap."""

    # The hook's fee, wei (its ERC-6909 mint next to the swap).
    eth: str
    # Of the ETH that changed hands, percent with two places.
    percent: str


class CoinTrade(TypedDict):
    tx_hash: str
    block_number: str
    log_index: int
    # Block time.
    time: str
    side: Literal["buy", "sell"]
    # The wallet that received the tokens (buy) or sent them (sell): the other side of the token's
    # transfer with the PoolManager; the swap's router when there is none.
    wallet: str
    # The display name the wallet set (PATCH /v1/user/profile), to link to its profile; null:
    # none.
    wallet_name: str | None
    # Tokens bought or sold, base units.
    token: str
    # Wei the wallet paid (buy, the launch fee included) or received (sell, after it).
    eth: str
    # Wei through the pool (|amount0|).
    pool_eth: str
    # Null when no fee mint was indexed next to the swap.
    launch_fee: CoinTradeLaunchFee | None
    # The pool price after the swap.
    price_eth_per_million_tokens: str


class CoinTrades(TypedDict):
    song_id: str
    # Newest first.
    trades: list[CoinTrade]
    # Pass as `cursor` for older trades; null on the last page.
    next_cursor: str | None
    indexed_through_block: str | None


class ContentCredentialsFields(TypedDict):
    """The signed C2PA manifest embedded in the MP3 (ID3 GEOB frame): made by AI (c2pa.created,
    trainedAlgorithmicMedia), model and licence, seed, prompt hash, job id. Null for audio
    published before credentials were embedded."""

    standard: Literal["c2pa"]
    # The active manifest's label.
    manifest: str
    # Subject of the certificate that signed it.
    signer: str


# The signed C2PA manifest embedded in the MP3 (ID3 GEOB frame): made by AI (c2pa.created,
# trainedAlgorithmicMedia), model and licence, seed, prompt hash, job id. Null for audio published
# before credentials were embedded.
ContentCredentials: TypeAlias = 'ContentCredentialsFields | None'


class PublicProfileAvatar(TypedDict):
    """The creator's own avatar."""

    # Public URL in the object store (the `covers/` prefix).
    url: str
    # `ipfs://<cid>` of the same bytes.
    ipfs: str
    content_type: str


class PublicProfileFarcaster(TypedDict):
    """The linked fid's user data from the operator's Farcaster hub (FARCASTER_HUB_URL), read only
    where the creator set no name or no avatar of their own; null without a linked fid, without
    a hub, or when the hub did not answer in time."""

    # The linked Farcaster fid (`social_fid`).
    fid: str
    # USER_DATA_TYPE_USERNAME: the fname or ENS name.
    username: str | None
    # USER_DATA_TYPE_DISPLAY, when our name rules take it.
    display_name: str | None
    # USER_DATA_TYPE_PFP, when it is an https URL.
    pfp_url: str | None


class PublicProfile(TypedDict):
    # What to call the creator: `display_name`, else the Farcaster display name, else the
    # Farcaster username; null: show the address.
    name: str | None
    # The picture to show: the creator's avatar, else the Farcaster picture; null: none.
    avatar_url: str | None
    # The creator's own display name (1 to 50 characters); not unique.
    display_name: str | None
    # The creator's own bio (at most 280 characters, line breaks kept).
    bio: str | None
    # The creator's own avatar.
    avatar: PublicProfileAvatar | None
    # The linked fid's user data from the operator's Farcaster hub (FARCASTER_HUB_URL), read only
    # where the creator set no name or no avatar of their own; null without a linked fid, without
    # a hub, or when the hub did not answer in time.
    farcaster: PublicProfileFarcaster | None


class CreatorProfileSongsItemCoinMarketCap(TypedDict):
    # Price times supply. Wei.
    eth: str
    # US dollars, two places. Null unless an ETH/USD feed is configured.
    usd: str | None


class CreatorProfileSongsItemCoinVolume24h(TypedDict):
    # Wei.
    eth: str
    trades: int


class CreatorProfileSongsItemCoin(TypedDict):
    """Null until the song is launched (and its launch indexed)."""

    token: str
    symbol: str
    launched_at: str
    price_eth_per_million_tokens: str | None
    market_cap: CreatorProfileSongsItemCoinMarketCap | None
    volume_24h: CreatorProfileSongsItemCoinVolume24h


class CreatorProfileSongsItem(TypedDict):
    song_id: str
    title: str | None
    image: str | None
    page_url: str
    minted_at: str | None
    # Null until the song is launched (and its launch indexed).
    coin: CreatorProfileSongsItemCoin | None


class CreatorProfileEarnings(TypedDict):
    """The creator side's earnings of the listed songs so far (each coin's `creator_earnings`)."""

    # Wei.
    eth: str
    # Token units (credited LP fees of sales, all songs).
    token: str
    # US dollars of the ETH. Null unless an ETH/USD feed is configured.
    usd: str | None


class CreatorProfileEthUsd(TypedDict):
    """The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale)."""

    # US dollars per ETH, as the feed answered.
    price: str
    # The feed round's time.
    updated_at: str
    # The Chainlink ETH/USD feed read (AggregatorV3Interface).
    feed: str


class CreatorProfile(TypedDict):
    # EIP-55.
    address: str
    page_url: str
    profile: PublicProfile
    # Songs the address minted or launched as creator, newest first, at most 100.
    songs: list[CreatorProfileSongsItem]
    songs_total: int
    # How many of the listed songs are launched.
    coins: int
    # The creator side's earnings of the listed songs so far (each coin's `creator_earnings`).
    earnings: CreatorProfileEarnings
    # The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale).
    eth_usd: CreatorProfileEthUsd | None


class DailyLimitError(TypedDict):
    error: Literal["rate_limit_exceeded"]
    limit: int
    reset_at: str
    code: Literal["RATE_001"]
    message: str
    retry_after: int


class EarlierSong(TypedDict):
    """The song signed for another account that the refused audio contains (docs/fingerprints.md)."""

    # The registered song’s job (`gen_…`).
    job_id: str
    # Its SongNFT token id (decimal) once its mint is seen on chain, else null.
    token_id: str | None


class EditOf(TypedDict):
    """Extension: what this song was edited from, one of its owner's jobs or audio they uploaded
    (exactly one of the two ids), and the edit as it was asked for (docs/api.md "Edit a song");
    null for a song that is no edit."""

    # The source song's job (`gen_…`); null for an edit of an upload.
    job_id: str | None
    # The uploaded source audio (`upl_…`); null for an edit of a song.
    upload_id: str | None
    task: Literal["extend", "repaint", "remix"]
    # Repaint: where the remade range starts (seconds); null for another task.
    start: float | None
    # Repaint: where it ends (seconds); null for another task.
    end: float | None
    # Remix: how closely it follows the source, 0 to 1; null for another task.
    strength: float | None


class EditOfVariantB(TypedDict):
    """Extension: what this song was edited from, one of its owner's jobs or audio they uploaded
    (exactly one of the two ids), and the edit as it was asked for (docs/api.md "Edit a song");
    null for a song that is no edit."""

    # The source song's job (`gen_…`); null for an edit of an upload.
    jobId: str | None
    # The uploaded source audio (`upl_…`); null for an edit of a song.
    uploadId: str | None
    task: Literal["extend", "repaint", "remix"]
    # Repaint: where the remade range starts (seconds); null for another task.
    start: float | None
    # Repaint: where it ends (seconds); null for another task.
    end: float | None
    # Remix: how closely it follows the source, 0 to 1; null for another task.
    strength: float | None


class EditRequest(TypedDict):
    """Extension: edit one of your completed songs, or audio you uploaded, instead of starting
    over. `prompt` describes the new material; `duration` is the result's length (extend: longer
    than the source; repaint and remix: the source's, an upload's whole seconds). Charged and
    limited as a generation."""

    # The song to edit: one of your completed jobs (`gen_…`).
    source_job_id: NotRequired[str]
    # Or the audio to edit: one of your uploads (`upl_…`, POST /api/uploads). Exactly one of the
    # two.
    source_upload_id: NotRequired[str]
    # `extend`: the result is `duration` seconds, the source then new material; `repaint`: seconds
    # `start` to `end` made anew, the rest kept; `remix`: a variation keeping tempo, key and chord
    # progression.
    task: Literal["extend", "repaint", "remix"]
    # Repaint only: where the new material starts (seconds).
    start: NotRequired[float]
    # Repaint only: where it ends (seconds, at least 1 s after start, at most the song).
    end: NotRequired[float]
    # Remix only: how closely the remix follows the source, 0 to 1 (default 0.5).
    strength: NotRequired[float]


class EditRequestVariantB(TypedDict):
    """Variant B spelling of EditRequest."""

    # The song to edit (`gen_…`).
    sourceJobId: NotRequired[str]
    # Or the upload to edit (`upl_…`); exactly one of the two.
    sourceUploadId: NotRequired[str]
    # `extend`: the result is `duration` seconds, the source then new material; `repaint`: seconds
    # `start` to `end` made anew, the rest kept; `remix`: a variation keeping tempo, key and chord
    # progression.
    task: Literal["extend", "repaint", "remix"]
    # Repaint only: where the new material starts (seconds).
    start: NotRequired[float]
    # Repaint only: where it ends (seconds, at least 1 s after start, at most the song).
    end: NotRequired[float]
    # Remix only: how closely the remix follows the source, 0 to 1 (default 0.5).
    strength: NotRequired[float]


# The error codes of docs/api.md. A client should treat a code it does not know as the HTTP status
# alone.
ErrorCode: TypeAlias = 'Literal["GEN_001", "GEN_002", "GEN_003", "GEN_004", "GEN_005", "SIGN_001", "SIGN_002", "SIGN_003", "SIGN_004", "SIGN_005", "SIGN_006", "SIGN_007", "SIGN_008", "RATE_001", "RATE_002", "IDEM_001", "IDEM_002", "PREVIEW_EXPIRED", "EDIT_001", "EDIT_002", "EDIT_003", "EDIT_004", "EDIT_005", "UPLOAD_001", "UPLOAD_002", "UPLOAD_003", "UPLOAD_004", "UPLOAD_005", "UPLOAD_006", "UPLOAD_007", "LIBRARY_001", "LIBRARY_002", "LIBRARY_003", "LIBRARY_004", "STORAGE_001", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "BODY_TOO_SLOW", "AUTH_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "SERVICE_UNAVAILABLE", "INTERNAL_ERROR"]'


class ErrorVariantAError(TypedDict):
    code: ErrorCode
    message: str
    details: str
    retry_after: NotRequired[int]
    job_id: NotRequired[str]
    earlier_song: NotRequired[EarlierSong]


class ErrorVariantA(TypedDict):
    error: ErrorVariantAError


class ErrorVariantC(TypedDict):
    error: ErrorCode
    message: str
    details: dict[str, JsonValue]


class FarcasterSignInRequestWallet(TypedDict):
    """The wallet to act for, with the same nonce; absent: the address that signed the Farcaster
    message."""

    # EIP-4361 message of the wallet, for this domain and chain 8453.
    message: str
    # The wallet's EIP-191 signature of `message` (EOA or smart wallet).
    signature: str


class FarcasterSignInRequest(TypedDict):
    # Sign In With Farcaster (FIP-11) message: EIP-4361 for this domain, chain 10, statement
    # "Farcaster Auth", one `farcaster://fid/<fid>` resource and a nonce from GET /api/auth/nonce.
    message: str
    # The fid's custody address's or auth address's signature of `message`.
    signature: str
    # The wallet to act for, with the same nonce; absent: the address that signed the Farcaster
    # message.
    wallet: NotRequired[FarcasterSignInRequestWallet]


class GenerateAccepted(TypedDict):
    job_id: str
    status: Literal["queued"]
    # Seconds until the job is expected to complete.
    estimated_time: int
    # Place in the queue; 1 starts next.
    position: int


class GenerateRequest(TypedDict):
    # Text prompt, 1 to 500 characters.
    prompt: str
    # Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).
    duration: int
    # Reproducibility seed.
    seed: NotRequired[int]
    # Lyrics with [verse]/[chorus]/[bridge] tags; given lyrics win over with_lyrics.
    lyrics: NotRequired[str]
    # Diffusion steps: 27 (default) or 60.
    steps: NotRequired[Literal[27] | Literal[60]]
    # Generate lyrics from the prompt first (ignored when lyrics are given).
    with_lyrics: NotRequired[bool]
    # Extension: URL that receives a signed `generation.completed` or `generation.failed` POST
    # when the job finishes. https (http only for hosts in the operator's development allow-list);
    # never a private or loopback address.
    webhook: NotRequired[str]
    edit: NotRequired[EditRequest]


class GenerateRequestVariantB(TypedDict):
    # Text prompt, 1 to 500 characters.
    prompt: str
    # Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).
    duration: int
    edit: NotRequired[EditRequestVariantB]


class ModelRecordFields(TypedDict):
    """The model that made the audio; null only for a job no model completed."""

    name: str
    version: str


# The model that made the audio; null only for a job no model completed.
ModelRecord: TypeAlias = 'ModelRecordFields | None'


class LosslessFilesVariantBFieldsFilesItem(TypedDict):
    format: Literal["wav", "flac"]
    contentType: str
    # Size of the file.
    bytes: int
    # The API path (GET, bearer token, owner only) that answers a one-hour download URL of the
    # file.
    download: str


class LosslessFilesVariantBFields(TypedDict):
    """WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample
    rate), each carrying the same signed C2PA manifest; private, downloaded through `download`.
    Made in the seconds after the song completed (`status` pending, then ready). Null for songs
    made before they were kept, once retention deleted the audio, and when the worker could not
    make them. The MP3 stays the file `audio_hash` and the mint signature cover."""

    # `pending` from completion until the worker stored the files, a few seconds later (no files
    # listed yet: ask the status again); then `ready`.
    status: Literal["pending", "ready"]
    # Samples per second: the model's own rate (48000 for ACE-Step).
    sampleRate: int
    # Bits per sample of the integer PCM.
    bitsPerSample: int
    channels: int
    files: list[LosslessFilesVariantBFieldsFilesItem]


# WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample
# rate), each carrying the same signed C2PA manifest; private, downloaded through `download`. Made
# in the seconds after the song completed (`status` pending, then ready). Null for songs made
# before they were kept, once retention deleted the audio, and when the worker could not make
# them. The MP3 stays the file `audio_hash` and the mint signature cover.
LosslessFilesVariantB: TypeAlias = 'LosslessFilesVariantBFields | None'


class GenerateResultVariantB(TypedDict):
    audioUrl: str
    audioHash: str
    duration: int
    # The lyrics the song was made with (given, or written by the lyrics step); null for an
    # instrumental.
    lyrics: str | None
    model: ModelRecord
    contentCredentials: ContentCredentials
    lossless: LosslessFilesVariantB
    editOf: EditOfVariantB | None


class Health(TypedDict):
    status: Literal["ok"]
    service: str


class JobCancelled(TypedDict):
    job_id: str
    status: Literal["cancelled"]


class JobSummary(TypedDict):
    job_id: str
    status: Literal["queued", "processing", "completed", "failed", "cancelled"]
    progress: int
    prompt: str
    # Requested seconds.
    duration: int
    created_at: str
    audio_url: str | None
    audio_hash: str | None
    error_code: ErrorCode | None
    edit_of: EditOf | None
    # Extension: the name it goes by besides its prompt: the minted name, or the title its owner
    # gave it (or an edit got from its source, e.g. "Night drive (extended +4 s)"); null: it goes
    # by its prompt.
    title: str | None
    # Extension: the minted SongNFT token id once the chain watcher has seen the mint; null
    # before.
    nft_token_id: str | None
    # Extension: when its owner moved it to the trash; null while it is in the library.
    deleted_at: str | None


class JobList(TypedDict):
    # Newest first.
    jobs: list[JobSummary]
    # Cursor of the next page; null on the last page.
    next_cursor: str | None
    # Extension: songs matching `filter` and `q` in all pages.
    total: int


class JobStatusQueued(TypedDict):
    job_id: str
    status: Literal["queued"]
    progress: int
    # Seconds.
    estimated_remaining: int
    position: int


class JobStatusProcessing(TypedDict):
    job_id: str
    status: Literal["processing"]
    progress: int
    # Seconds.
    estimated_remaining: int


class LosslessFilesFieldsFilesItem(TypedDict):
    format: Literal["wav", "flac"]
    content_type: str
    # Size of the file.
    bytes: int
    # The API path (GET, bearer token, owner only) that answers a one-hour download URL of the
    # file.
    download: str


class LosslessFilesFields(TypedDict):
    """WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample
    rate), each carrying the same signed C2PA manifest; private, downloaded through `download`.
    Made in the seconds after the song completed (`status` pending, then ready). Null for songs
    made before they were kept, once retention deleted the audio, and when the worker could not
    make them. The MP3 stays the file `audio_hash` and the mint signature cover."""

    # `pending` from completion until the worker stored the files, a few seconds later (no files
    # listed yet: ask the status again); then `ready`.
    status: Literal["pending", "ready"]
    # Samples per second: the model's own rate (48000 for ACE-Step).
    sample_rate: int
    # Bits per sample of the integer PCM.
    bits_per_sample: int
    channels: int
    files: list[LosslessFilesFieldsFilesItem]


# WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample
# rate), each carrying the same signed C2PA manifest; private, downloaded through `download`. Made
# in the seconds after the song completed (`status` pending, then ready). Null for songs made
# before they were kept, once retention deleted the audio, and when the worker could not make
# them. The MP3 stays the file `audio_hash` and the mint signature cover.
LosslessFiles: TypeAlias = 'LosslessFilesFields | None'


class JobStatusCompleted(TypedDict):
    job_id: str
    status: Literal["completed"]
    audio_url: str
    audio_hash: str
    duration: int
    created_at: str
    # The lyrics the song was made with (given, or written by the lyrics step); null for an
    # instrumental.
    lyrics: str | None
    model: ModelRecord
    content_credentials: ContentCredentials
    lossless: LosslessFiles
    # True once the chain watcher has seen the song minted with its platform signature (confirmed
    # blocks deep); false before, also while a signature is issued but unused.
    signature_used: bool
    # The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null
    # until then.
    nft_token_id: str | None
    edit_of: EditOf | None


class JobStatusFailedError(TypedDict):
    code: ErrorCode
    message: str
    retry_after: NotRequired[int]


class JobStatusFailed(TypedDict):
    job_id: str
    status: Literal["failed"]
    error: JobStatusFailedError


class JobStatusCancelled(TypedDict):
    """Extension of the spec: the owner cancelled the job (POST /api/generate/{job_id}/cancel)
    before it completed."""

    job_id: str
    status: Literal["cancelled"]


JobStatus: TypeAlias = 'JobStatusQueued | JobStatusProcessing | JobStatusCompleted | JobStatusFailed | JobStatusCancelled'


class ListedUpload(TypedDict):
    upload_id: str
    # The name sent with it (Songmint-Upload-Name); its edits are titled after it. Null when none
    # was sent.
    name: str | None
    format: Literal["wav", "flac", "mp3"]
    # Seconds, as decoded (to the millisecond). An edit works on its whole seconds.
    duration: float
    sample_rate: int
    channels: int
    bytes: int
    # SHA-256 of the file as uploaded; edits made from it name it.
    sha256: str
    # When the uploader confirmed the rights statement (recorded with it).
    rights_confirmed_at: str
    created_at: str
    # When retention deletes the file (30 days after the upload).
    expires_at: str
    # Presigned GET URL of the file as uploaded, valid 1 hour, for its owner to play (issue 51);
    # every list issues fresh ones. Null when the store could not sign one.
    audio_url: str | None


class Liveness(TypedDict):
    status: Literal["alive"]
    # Seconds since the process started.
    uptime_seconds: int


class SongAttributes(TypedDict):
    genre: NotRequired[str]
    mood: NotRequired[str]
    # Seconds; defaults to the linked job duration.
    duration: NotRequired[int]
    bpm: NotRequired[int]


class MetadataRequest(TypedDict):
    # Song title, 1 to 200 characters.
    name: str
    # Up to 5000 characters.
    description: NotRequired[str]
    # Public URL of the audio. When it is `{storage_url}/audio/<job_id>.mp3` of a completed job of
    # the caller, the job is linked: its audio hash goes into the metadata and the cover is stored
    # at covers/<job_id>.png.
    audio_url: str
    # Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5 MB decoded.
    cover_image: NotRequired[str]
    attributes: NotRequired[SongAttributes]
    external_url: NotRequired[str]


class MetadataRequestVariantB(TypedDict):
    # Song title, 1 to 200 characters.
    name: str
    # Up to 5000 characters.
    description: NotRequired[str]
    # Public URL of the audio. When it is `{storage_url}/audio/<job_id>.mp3` of a completed job of
    # the caller, the job is linked: its audio hash goes into the metadata and the cover is stored
    # at covers/<job_id>.png.
    audioUrl: str
    # Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5 MB decoded.
    coverImage: NotRequired[str]
    attributes: NotRequired[SongAttributes]
    externalUrl: NotRequired[str]


class MetadataResponse(TypedDict):
    metadata_uri: str
    # 0x + sha256 of the exact JSON bytes behind the CID.
    metadata_hash: str
    cid: str
    job_id: NotRequired[str]
    # ipfs:// URI of the cover.
    image: NotRequired[str]
    cover_url: NotRequired[str]
    pin_status: NotRequired[Literal["queued", "pinning", "pinned"]]


class MetadataResponseVariantB(TypedDict):
    metadataURI: str
    # The CID.
    ipfsHash: str


class Nft(TypedDict):
    token_id: str
    chain_id: int
    contract: str | None
    metadata_uri: str
    # The metadata JSON when this oracle published it.
    metadata: dict[str, JsonValue] | None
    # Address that minted the token (transfers are not tracked).
    minter: str
    audio_hash: str
    audio_url: str | None
    job_id: str
    mint_tx_hash: str | None
    minted_at: str | None
    # Uniswap v4 PoolId of the song's pool; null until its launch is indexed.
    pool_id: str | None
    # The pool route (`/v1/trading/pools/{id}`); null until the launch is indexed.
    pool_url: str | None


class NftMintRequest(TypedDict):
    job_id: str
    # Metadata URI the token will carry.
    metadata_uri: str
    user_address: NotRequired[str]


class NftMintResponseMintCall(TypedDict):
    chain_id: int
    # SongNFT address; null when the oracle has no chain configured.
    address: str | None
    function_name: Literal["mint"]
    # [metadataURI, audioHash, signature]
    args: tuple[str, str, str]


class NftMintResponse(TypedDict):
    job_id: str
    signature: str
    metadata_uri: str
    audio_hash: str
    minter: str
    expires_at: str
    mint_call: NftMintResponseMintCall


class PoolHistoryLaunch(TypedDict):
    """The pool's starting price (PoolManager.Initialize); null only in the instant before that log
    is indexed."""

    # sqrtPriceX96 after the event.
    sqrt_price_x96: str
    tick: int
    # Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.
    tokens_per_eth: str
    # ETH per song token, decimal, rounded down to 18 places.
    eth_per_token: str
    block_number: str
    # Block time.
    time: str


class PoolSwap(TypedDict):
    # sqrtPriceX96 after the event.
    sqrt_price_x96: str
    tick: int
    # Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.
    tokens_per_eth: str
    # ETH per song token, decimal, rounded down to 18 places.
    eth_per_token: str
    block_number: str
    # Block time.
    time: str
    log_index: int
    tx_hash: str
    # `buy`: ETH in, song tokens out; `sell`: the other way.
    side: Literal["buy", "sell"]
    # Wei of ETH through the pool (|amount0|, before the hook fee).
    eth: str
    # Song token units through the pool (|amount1|).
    token: str
    # Active liquidity after the swap.
    liquidity: str
    # The swap's LP fee in pips (hundredths of a basis point).
    fee_pips: int


class PoolHistory(TypedDict):
    song_id: str
    pool_id: str
    # The pool's starting price (PoolManager.Initialize); null only in the instant before that log
    # is indexed.
    launch: PoolHistoryLaunch | None
    # Newest first.
    swaps: list[PoolSwap]
    # Pass as `cursor` for older swaps; null on the last page.
    next_cursor: str | None
    # Last block the indexer has read (confirmed); null before its first batch or without a chain.
    indexed_through_block: str | None


class PortfolioHoldingsItemValue(TypedDict):
    # At the pool price now (spot: a sale of it all fetches less, see `sale`). Wei.
    eth: str
    # US dollars, two places. Null unless an ETH/USD feed is configured.
    usd: str | None


class SaleQuote(TypedDict):
    # Wei selling all of it pays now, the LP fee and the launch fee included (Uniswap’s V4Quoter
    # on the pool, in `block_number`).
    eth: str | None
    # US dollars of `eth`. Null unless an ETH/USD feed is configured.
    usd: str | None
    # False: the pool cannot buy all of it back now (it pays out only the ETH buyers paid in);
    # `eth` is then null. Also false when the chain could not be read.
    fills: bool


class PortfolioHoldingsItem(TypedDict):
    song_id: str
    title: str | None
    image: str | None
    page_url: str
    token: str
    symbol: str
    # Token base units.
    balance: str
    share_percent: str
    price_eth_per_million_tokens: str | None
    value: PortfolioHoldingsItemValue
    sale: SaleQuote
    # Wei the coin's pool holds now: the most every holder together can sell for, before fees.
    pool_eth: str | None


class PortfolioTotalValue(TypedDict):
    # All holdings at their pool prices (spot). Wei.
    eth: str
    # US dollars, two places. Null unless an ETH/USD feed is configured.
    usd: str | None


class PortfolioTotalSale(TypedDict):
    """What the holdings can really be sold for now."""

    # Wei selling every holding now pays, each against its pool, fees included: the sum of the
    # `sale` quotes that fill.
    eth: str
    # US dollars. Null unless an ETH/USD feed is configured.
    usd: str | None
    # False when some holding’s pool cannot buy all of it back (it is left out of `eth`).
    complete: bool


class PortfolioFeesItemClaimable(TypedDict):
    # Wei.
    eth: str
    # Token units.
    token: str


class PortfolioFeesItem(TypedDict):
    song_id: str
    title: str | None
    image: str | None
    page_url: str
    claimable: PortfolioFeesItemClaimable
    # The creator share of hook fees not collected yet; a claim collects them first.
    uncollected_swap_fees_eth: str


class PortfolioAllocationsItem(TypedDict):
    song_id: str
    title: str | None
    image: str | None
    page_url: str
    # Tokens the vault has not released to this address yet (vested or not): `total - claimed`.
    amount: str
    # The first second a claim can pay anything: right after the cliff.
    claimable_at: str
    # Tokens the allocation gives its recipient in all.
    total: str
    # Tokens vested now, the claimed ones included (nothing before the cliff, then linearly).
    vested: str
    # Tokens not vested yet: `total - vested`.
    unvested: str
    # Tokens already minted to the recipient (and free to sell).
    claimed: str
    # What `claimAllocation` pays now: `vested - claimed`.
    claimable: str
    # Until then nothing vests: the creator cannot sell any of it into the pool.
    cliff_end: str
    # From then everything has vested.
    vesting_end: str


class PortfolioEthUsd(TypedDict):
    """The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale)."""

    # US dollars per ETH, as the feed answered.
    price: str
    # The feed round's time.
    updated_at: str
    # The Chainlink ETH/USD feed read (AggregatorV3Interface).
    feed: str


class Portfolio(TypedDict):
    address: str
    # Song tokens held, largest value first (indexed Transfer logs).
    holdings: list[PortfolioHoldingsItem]
    total_value: PortfolioTotalValue
    # What the holdings can really be sold for now.
    total_sale: PortfolioTotalSale
    # Songs whose creator share this address receives now, with what `SongVault.claim` would pay
    # (read from the vault).
    fees: list[PortfolioFeesItem]
    # Launch allocations named for this address and not all claimed yet, with their vesting (read
    # from the vault).
    allocations: list[PortfolioAllocationsItem]
    # Block of the vault reads; null when the chain could not be read (fees and allocations are
    # then empty).
    block_number: str | None
    indexed_through_block: str | None
    # The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale).
    eth_usd: PortfolioEthUsd | None


class PreviewAccepted(TypedDict):
    # Server-generated preview session id.
    session_id: str
    status: Literal["queued"]
    # Seconds until the preview is expected to complete.
    estimated_time: int
    # Place in the generation queue; 1 starts next.
    position: int


class PreviewRequest(TypedDict):
    # Text prompt, 1 to 500 characters.
    prompt: str
    # Seconds of the clip, 5 to 15 (default 10).
    duration: NotRequired[int]
    # Reproducibility seed.
    seed: NotRequired[int]
    # Lyrics with [verse]/[chorus]/[bridge] tags; given lyrics win over with_lyrics.
    lyrics: NotRequired[str]
    # Diffusion steps: 27 (default) or 60.
    steps: NotRequired[Literal[27] | Literal[60]]
    # Generate lyrics from the prompt first (ignored when lyrics are given).
    with_lyrics: NotRequired[bool]


class PreviewStatusQueued(TypedDict):
    # Server-generated preview session id.
    session_id: str
    status: Literal["queued"]
    progress: int
    # Seconds.
    estimated_remaining: int
    position: int
    # When the preview is deleted: its request + 24 hours (UTC). From then on the status answers
    # 410 PREVIEW_EXPIRED.
    expires_at: str


class PreviewStatusProcessing(TypedDict):
    # Server-generated preview session id.
    session_id: str
    status: Literal["processing"]
    progress: int
    # Seconds.
    estimated_remaining: int
    # When the preview is deleted: its request + 24 hours (UTC). From then on the status answers
    # 410 PREVIEW_EXPIRED.
    expires_at: str


class PreviewStatusCompleted(TypedDict):
    # Server-generated preview session id.
    session_id: str
    status: Literal["completed"]
    # Presigned GET URL of the private clip, valid 1 hour; every status request issues a fresh
    # one.
    preview_url: str
    # When `preview_url` stops working (UTC).
    url_expires_at: str
    # When the preview is deleted: its request + 24 hours (UTC). From then on the status answers
    # 410 PREVIEW_EXPIRED.
    expires_at: str
    # `0x` + SHA-256 of the clip bytes.
    audio_hash: str
    # Seconds of the clip.
    duration: int
    created_at: str


class PreviewStatusFailedError(TypedDict):
    code: ErrorCode
    message: str
    retry_after: NotRequired[int]


class PreviewStatusFailed(TypedDict):
    # Server-generated preview session id.
    session_id: str
    status: Literal["failed"]
    error: PreviewStatusFailedError
    # When the preview is deleted: its request + 24 hours (UTC). From then on the status answers
    # 410 PREVIEW_EXPIRED.
    expires_at: str


PreviewStatus: TypeAlias = 'PreviewStatusQueued | PreviewStatusProcessing | PreviewStatusCompleted | PreviewStatusFailed'


class ProfileChange(TypedDict):
    # 1 to 50 characters after trimming (runs of spaces become one; Unicode NFC): letters,
    # numbers, punctuation, symbols and spaces; no control, bidi-override or invisible characters.
    # Null or empty clears it. Not unique.
    display_name: NotRequired[str | None]
    # At most 280 characters after trimming; line breaks kept (at most one empty line in a row).
    # Null or empty clears it.
    bio: NotRequired[str | None]
    # Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5242880 bytes decoded, checked as
    # covers are (its bytes must be the type it declares). Null removes it.
    avatar: NotRequired[str | None]


class PublicLaunchedSongVolume24h(TypedDict):
    # Wei swapped in the last 24 hours.
    eth: str
    trades: int


class PublicLaunchedSong(TypedDict):
    # SongNFT token id.
    song_id: str
    # The metadata's `name`; null when this oracle did not publish the metadata.
    title: str | None
    description: str | None
    # The `genre` attribute, when the creator gave one.
    genre: str | None
    # The cover (`image`, usually `ipfs://…`: fetch through this API at `/ipfs/<cid>`).
    image: str | None
    # The song (`animation_url`, usually `ipfs://…`), else the generated audio URL.
    audio: str | None
    # The address that minted it (EIP-55 checksummed).
    creator: str
    # The display name the creator set (PATCH /v1/user/profile); null: none (show the address).
    # Their Farcaster name, when they set none, is on GET /v1/public/creators/{address}.
    creator_name: str | None
    minted_at: str | None
    # The web app's page of the song.
    page_url: str
    launched_at: str
    # Song tokens per ETH at the latest indexed swap (or the launch).
    tokens_per_eth: str | None
    # ETH per 1,000,000 tokens at the same price, decimal (the app's price unit).
    price_eth_per_million_tokens: str | None
    # The price's change against 24 hours ago (the last swap before then, else the launch price),
    # percent with two places, as the coin page's.
    change_24h_percent: str | None
    # Price times supply, wei; null before the launch price is indexed.
    market_cap: str | None
    volume_24h: PublicLaunchedSongVolume24h


class PublicSong(TypedDict):
    # SongNFT token id.
    song_id: str
    # The metadata's `name`; null when this oracle did not publish the metadata.
    title: str | None
    description: str | None
    # The `genre` attribute, when the creator gave one.
    genre: str | None
    # The cover (`image`, usually `ipfs://…`: fetch through this API at `/ipfs/<cid>`).
    image: str | None
    # The song (`animation_url`, usually `ipfs://…`), else the generated audio URL.
    audio: str | None
    # The address that minted it (EIP-55 checksummed).
    creator: str
    # The display name the creator set (PATCH /v1/user/profile); null: none (show the address).
    # Their Farcaster name, when they set none, is on GET /v1/public/creators/{address}.
    creator_name: str | None
    minted_at: str | None
    # The web app's page of the song.
    page_url: str
    # The lyrics the song was sung with (the generation record); null for instrumentals.
    lyrics: str | None
    # Null until its launch is indexed.
    launched_at: str | None


class PublicSongs(TypedDict):
    # In the order `sort` asked for (newest launch first by default).
    songs: list[PublicLaunchedSong]
    # Pass as `cursor` for the next page; null on the last page.
    next_cursor: str | None


class QuickAuthSignInRequestWallet(TypedDict):
    """Needed the first time a fid signs in: the wallet its account acts for (a nonce from GET
    /api/auth/nonce)."""

    # EIP-4361 message of the wallet, for this domain and chain 8453.
    message: str
    # The wallet's EIP-191 signature of `message` (EOA or smart wallet).
    signature: str


class QuickAuthSignInRequest(TypedDict):
    # A Farcaster Mini App's Quick Auth JWT issued for this domain.
    token: str
    # Needed the first time a fid signs in: the wallet its account acts for (a nonce from GET
    # /api/auth/nonce).
    wallet: NotRequired[QuickAuthSignInRequestWallet]


class ReadinessChecksSigner(TypedDict):
    """Which backend signs mints: `pkcs11` (an HSM) or `awskms`, or `libsecp256k1`/`noble` for a
    development key in the environment."""

    backend: Literal["pkcs11", "awskms", "libsecp256k1", "noble"]
    # The key reference without PIN (`pkcs11:token=…;object=…`, `awskms://…`), or `env`.
    key: str


class ReadinessChecksWorkers(TypedDict):
    # Workers with a fresh heartbeat.
    live: NotRequired[int]
    slots: NotRequired[int]
    devices: NotRequired[list[str]]
    # The models the live workers run, as `name@version`.
    models: NotRequired[list[str]]
    status: Literal["up", "down", "unknown"]


class ReadinessChecks(TypedDict):
    # Which backend signs mints: `pkcs11` (an HSM) or `awskms`, or `libsecp256k1`/`noble` for a
    # development key in the environment.
    signer: NotRequired[ReadinessChecksSigner]
    database: Literal["up", "down"]
    workers: ReadinessChecksWorkers


class Readiness(TypedDict):
    status: Literal["ready", "not_ready"]
    checks: ReadinessChecks
    # Only when not ready: what the service waits for. `database`: PostgreSQL does not answer;
    # `workers`: no inference worker has a heartbeat newer than 20 s.
    waiting_for: NotRequired[list[Literal["database", "workers"]]]


class RenameJobRequest(TypedDict):
    # The new name, 1 to 200 characters: letters, numbers, punctuation, symbols and spaces (no
    # control, bidi or invisible characters; other spaces become U+0020, runs of them one, and
    # those at the ends are dropped).
    title: str


class SessionTokenUser(TypedDict):
    id: str
    wallet_address: str
    tier: Literal["free", "pro", "enterprise"]
    social_fid: str | None


class SessionToken(TypedDict):
    token: str
    expires_at: str
    user: SessionTokenUser


class SignatureRequest(TypedDict):
    job_id: str
    # Must be the authenticated wallet.
    user_address: str
    # Metadata URI the token will carry.
    metadata_uri: str


class SignatureRequestVariantB(TypedDict):
    # Metadata URI the token will carry.
    metadataURI: str
    audioHash: str


class SignatureResponse(TypedDict):
    # 65-byte EIP-191 signature, hex.
    signature: str
    audio_hash: str
    # Issue time + 1 hour (UTC).
    expires_at: str
    job_id: str


class SignatureResponseVariantB(TypedDict):
    signature: str
    # Unix seconds.
    expiresAt: int


class SongDownload(TypedDict):
    job_id: str
    format: Literal["mp3", "wav", "flac"]
    content_type: str
    bytes: int
    # The name the file is saved under: `<title> - <first 8 hex digits of the job id>.<format>`,
    # the song's name (minted name, title, else its prompt) with characters no file system takes
    # replaced.
    file_name: str
    # Presigned GET URL of the file, valid 1 hour; every request issues a fresh one. It answers
    # with `Content-Disposition: attachment` naming `file_name` (RFC 6266, `filename*` in UTF-8),
    # so a browser saves the file.
    url: str
    # When `url` stops working (UTC).
    expires_at: str


class TradingPoolPrice(TypedDict):
    """Null only in the instant between the launch and its Initialize log being indexed."""

    # sqrtPriceX96 of the latest indexed Swap (of Initialize before any swap).
    sqrt_price_x96: str
    tick: int
    # Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.
    tokens_per_eth: str
    # ETH per song token, the inverse, decimal, rounded down to 18 places.
    eth_per_token: str
    # `swap`: the latest indexed Swap; `launch`: the pool's Initialize (no swap yet).
    source: Literal["swap", "launch"]
    # Block of that event.
    block_number: str


class TradingPoolFeesCollected(TypedDict):
    # LP fees collected, wei (Uniswap v4 computes LP fees only when a position is touched, so
    # uncollected LP fees are not shown).
    lp_fees_eth: str
    # LP fees collected, song token units.
    lp_fees_token: str
    # Hook swap fees collected, wei.
    swap_fees_eth: str


class TradingPoolFeesCreditedCreator(TypedDict):
    # Wei.
    eth: str
    # Song token base units (18 decimals).
    token: str


class TradingPoolFeesCreditedPlatform(TypedDict):
    # Wei.
    eth: str
    # Song token base units (18 decimals).
    token: str


class TradingPoolFeesCredited(TypedDict):
    """Fees credited to each party by `collectFees` so far, all time (FeesCollected)."""

    creator: TradingPoolFeesCreditedCreator
    platform: TradingPoolFeesCreditedPlatform


class TradingPoolFeesClaimableCreator(TypedDict):
    # The party that `SongVault.claim` pays.
    account: str
    # Wei.
    eth: str
    # Song token base units.
    token: str


class TradingPoolFeesClaimablePlatform(TypedDict):
    # The party that `SongVault.claim` pays.
    account: str
    # Wei.
    eth: str
    # Song token base units.
    token: str


class TradingPoolFeesClaimable(TypedDict):
    """What `SongVault.claim` would pay each party now, read from `claimableFeesOf` at answer time
    (token credits count from the end of the launch fee window); null when the chain could not
    be read."""

    block_number: str
    creator: TradingPoolFeesClaimableCreator
    platform: TradingPoolFeesClaimablePlatform


class TradingPoolFees(TypedDict):
    # Wei of ETH the hook charged on swaps, all time (the PoolManager's ERC-6909 mints of the
    # fees).
    swap_fees_eth: str
    # Of those, wei not yet moved into the parties' balances by `collectFees`.
    uncollected_swap_fees_eth: str
    collected: TradingPoolFeesCollected
    # Fees credited to each party by `collectFees` so far, all time (FeesCollected).
    credited: TradingPoolFeesCredited
    # What `SongVault.claim` would pay each party now, read from `claimableFeesOf` at answer time
    # (token credits count from the end of the launch fee window); null when the chain could not
    # be read.
    claimable: TradingPoolFeesClaimable | None


class TradingPoolVolume24h(TypedDict):
    # Wei of ETH swapped through the pool in the last 24 hours (|amount0| of each Swap, before the
    # hook fee).
    eth: str
    # Song token units swapped in the last 24 hours.
    token: str
    # Swaps in the last 24 hours.
    trades: int


class TradingPool(TypedDict):
    # SongNFT token id.
    song_id: str
    chain_id: int
    # Uniswap v4 PoolId (keccak256 of the pool key).
    pool_id: str
    # The song's SongToken (currency1; currency0 is native ETH).
    token: str
    # The song's creator, as SongLaunched names it.
    creator: str
    launched_at: str
    launch_tx_hash: str
    # Null only in the instant between the launch and its Initialize log being indexed.
    price: TradingPoolPrice | None
    # Active liquidity at the current tick (Uniswap v4 L), from the indexed Swap and
    # ModifyLiquidity events.
    liquidity: str
    fees: TradingPoolFees
    volume_24h: TradingPoolVolume24h
    # Swaps since the launch.
    trades_total: int
    # This pool's route.
    url: str
    # The song's NFT route.
    nft_url: str


class TradingPools(TypedDict):
    pools: list[TradingPool]
    # Pass as `cursor` for the next page; null on the last page.
    next_cursor: str | None
    # Last block the indexer has read (confirmed); null before its first batch or without a chain.
    indexed_through_block: str | None


class Upload(TypedDict):
    upload_id: str
    # The name sent with it (Songmint-Upload-Name); its edits are titled after it. Null when none
    # was sent.
    name: str | None
    format: Literal["wav", "flac", "mp3"]
    # Seconds, as decoded (to the millisecond). An edit works on its whole seconds.
    duration: float
    sample_rate: int
    channels: int
    bytes: int
    # SHA-256 of the file as uploaded; edits made from it name it.
    sha256: str
    # When the uploader confirmed the rights statement (recorded with it).
    rights_confirmed_at: str
    created_at: str
    # When retention deletes the file (30 days after the upload).
    expires_at: str


class UploadDeleted(TypedDict):
    upload_id: str
    status: Literal["deleted"]


class UploadList(TypedDict):
    # Newest first; deleted and expired uploads are not listed.
    uploads: list[ListedUpload]
    # Cursor of the next page; null on the last page.
    next_cursor: str | None
    # The statement an upload confirms with the header `Songmint-Rights-Confirmed: true`,
    # versioned (it starts with its version) and recorded with each upload: show it in full beside
    # an upload control.
    rights_statement: str


class UserProfileStatisticsJobs(TypedDict):
    queued: int
    processing: int
    completed: int
    failed: int


class UserProfileStatistics(TypedDict):
    jobs: UserProfileStatisticsJobs
    audio_seconds_generated: float
    minted: int


class UserProfileLimitsSongsDaily(TypedDict):
    """The tier's daily generations (the spec's daily counter, UTC day); reset_at is the next UTC
    midnight."""

    limit: int
    used: int
    remaining: int
    # When the counter starts again (ISO 8601 UTC).
    reset_at: str


class UserProfileLimitsSongsHourly(TypedDict):
    """The hourly `generation` category; reset_at is the end of this hour."""

    limit: int
    used: int
    remaining: int
    # When the counter starts again (ISO 8601 UTC).
    reset_at: str


class UserProfileLimitsSongs(TypedDict):
    # The tier's daily generations (the spec's daily counter, UTC day); reset_at is the next UTC
    # midnight.
    daily: UserProfileLimitsSongsDaily
    # The hourly `generation` category; reset_at is the end of this hour.
    hourly: UserProfileLimitsSongsHourly


class UserProfileLimitsPreviewsHourly(TypedDict):
    """The hourly `preview` category (previews never touch the daily counter); reset_at is the end
    of this hour."""

    limit: int
    used: int
    remaining: int
    # When the counter starts again (ISO 8601 UTC).
    reset_at: str


class UserProfileLimitsPreviews(TypedDict):
    # The hourly `preview` category (previews never touch the daily counter); reset_at is the end
    # of this hour.
    hourly: UserProfileLimitsPreviewsHourly


class UserProfileLimits(TypedDict):
    """Extension: what is left now. A song needs room in both songs.daily and songs.hourly; a
    refused request counts in neither."""

    songs: UserProfileLimitsSongs
    previews: UserProfileLimitsPreviews


UserProfileModelsLiveItemMaxDuration = TypedDict("UserProfileModelsLiveItemMaxDuration", {
    "27": int | None,
    "60": int | None,
})


class UserProfileModelsLiveItem(TypedDict):
    name: str
    version: str
    # The model sings the lyrics it is given.
    sings: bool
    # Live workers running it.
    workers: int
    # The longest song a live worker running it finishes, per steps value.
    max_duration: UserProfileModelsLiveItemMaxDuration


UserProfileModelsMaxDuration = TypedDict("UserProfileModelsMaxDuration", {
    "27": int | None,
    "60": int | None,
})


class UserProfileModels(TypedDict):
    """Extension: the models the live workers run (their heartbeats), whether they sing, and the
    longest song they finish."""

    # True only when a worker is live and every live worker's model sings the lyrics it is given
    # (ACE-Step): a job goes to whichever worker claims it. False: songs are instrumental; lyrics
    # (given or written) are recorded with the song and condition the music, but no voice sings
    # them.
    sings: bool
    live: list[UserProfileModelsLiveItem]
    # The longest song (seconds) any live worker finishes within the job limit, per steps value:
    # measured by each worker on its device at start. A longer request is refused with GEN_004
    # before anything is charged; the tighter of this and the tier's `max_duration` applies. Null:
    # no measured limit applies (no live worker, or one from before the measurement).
    max_duration: UserProfileModelsMaxDuration


class UserProfileStorage(TypedDict):
    """Extension: storage quota. An upload, song, edit or cover that would pass it is refused with
    STORAGE_001 (409) before anything is stored or charged; retention, the trash and deleting
    uploads give bytes back."""

    # Bytes the store holds for you: uploads (every byte of the file, metadata chunks included),
    # songs (MP3, WAV and FLAC masters, kept latents) and covers.
    used_bytes: int
    # Held for your queued and running songs until they store their files (estimated from their
    # length).
    pending_bytes: int
    # Your tier's quota: free 2 GiB, pro 50 GiB, enterprise 1 TiB.
    quota_bytes: int
    # quota - used - pending, at least 0.
    remaining_bytes: int


class UserProfile(TypedDict):
    id: str
    wallet_address: str
    social_fid: str | None
    tier: Literal["free", "pro", "enterprise"]
    daily_generations: int
    daily_limit: int
    max_duration: int
    last_generation_reset: str
    total_generations: int
    total_minted: int
    created_at: str
    updated_at: str
    statistics: UserProfileStatistics
    # Extension: what is left now. A song needs room in both songs.daily and songs.hourly; a
    # refused request counts in neither.
    limits: UserProfileLimits
    # Extension: the models the live workers run (their heartbeats), whether they sing, and the
    # longest song they finish.
    models: UserProfileModels
    # Extension: storage quota. An upload, song, edit or cover that would pass it is refused with
    # STORAGE_001 (409) before anything is stored or charged; retention, the trash and deleting
    # uploads give bytes back.
    storage: UserProfileStorage
    public_profile: PublicProfile


class WebhookPayloadDataQueued(TypedDict):
    job_id: str
    status: Literal["queued"]
    progress: int
    # Seconds.
    estimated_remaining: int
    position: int


class WebhookPayloadDataProcessing(TypedDict):
    job_id: str
    status: Literal["processing"]
    progress: int
    # Seconds.
    estimated_remaining: int


class WebhookPayloadDataCompleted(TypedDict):
    job_id: str
    status: Literal["completed"]
    audio_url: str
    audio_hash: str
    duration: int
    created_at: str
    # The lyrics the song was made with (given, or written by the lyrics step); null for an
    # instrumental.
    lyrics: str | None
    model: ModelRecord
    content_credentials: ContentCredentials
    lossless: LosslessFiles
    # True once the chain watcher has seen the song minted with its platform signature (confirmed
    # blocks deep); false before, also while a signature is issued but unused.
    signature_used: bool
    # The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null
    # until then.
    nft_token_id: str | None
    edit_of: EditOf | None


class WebhookPayloadDataFailedError(TypedDict):
    code: ErrorCode
    message: str
    retry_after: NotRequired[int]


class WebhookPayloadDataFailed(TypedDict):
    job_id: str
    status: Literal["failed"]
    error: WebhookPayloadDataFailedError


class WebhookPayloadDataCancelled(TypedDict):
    """Extension of the spec: the owner cancelled the job (POST /api/generate/{job_id}/cancel)
    before it completed."""

    job_id: str
    status: Literal["cancelled"]


class WebhookPayload(TypedDict):
    type: Literal["generation.completed", "generation.failed"]
    # When the job reached this state.
    timestamp: str
    # The job as GET /api/generate/{job_id} shows it.
    data: WebhookPayloadDataQueued | WebhookPayloadDataProcessing | WebhookPayloadDataCompleted | WebhookPayloadDataFailed | WebhookPayloadDataCancelled


class WebhookSecret(TypedDict):
    # Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the HMAC key).
    secret: str
    # When this secret was made (by first use or rotation).
    created_at: str


class CreateJobResponse202Queued(TypedDict):
    job_id: str
    status: Literal["queued"]
    progress: int
    # Seconds.
    estimated_remaining: int
    position: int


class CreateJobResponse202Processing(TypedDict):
    job_id: str
    status: Literal["processing"]
    progress: int
    # Seconds.
    estimated_remaining: int


class CreateJobResponse202Completed(TypedDict):
    job_id: str
    status: Literal["completed"]
    audio_url: str
    audio_hash: str
    duration: int
    created_at: str
    # The lyrics the song was made with (given, or written by the lyrics step); null for an
    # instrumental.
    lyrics: str | None
    model: ModelRecord
    content_credentials: ContentCredentials
    lossless: LosslessFiles
    # True once the chain watcher has seen the song minted with its platform signature (confirmed
    # blocks deep); false before, also while a signature is issued but unused.
    signature_used: bool
    # The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null
    # until then.
    nft_token_id: str | None
    edit_of: EditOf | None


class CreateJobResponse202FailedError(TypedDict):
    code: ErrorCode
    message: str
    retry_after: NotRequired[int]


class CreateJobResponse202Failed(TypedDict):
    job_id: str
    status: Literal["failed"]
    error: CreateJobResponse202FailedError


class CreateJobResponse202Cancelled(TypedDict):
    """Extension of the spec: the owner cancelled the job (POST /api/generate/{job_id}/cancel)
    before it completed."""

    job_id: str
    status: Literal["cancelled"]


OPERATIONS: Final[Mapping[str, Operation]] = {
    "cancelJob": Operation(
        operation_id="cancelJob",
        method="POST",
        path="/api/generate/{job_id}/cancel",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "changeProfile": Operation(
        operation_id="changeProfile",
        method="PATCH",
        path="/v1/user/profile",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=("application/json",),
        result="json",
    ),
    "createJob": Operation(
        operation_id="createJob",
        method="POST",
        path="/api/generate",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Prefer", "Idempotency-Key"),
        body_content_types=("application/json",),
        result="json",
    ),
    "createJobV1": Operation(
        operation_id="createJobV1",
        method="POST",
        path="/v1/music/generate",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Idempotency-Key",),
        body_content_types=("application/json",),
        result="json",
    ),
    "createPreview": Operation(
        operation_id="createPreview",
        method="POST",
        path="/api/previews",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Idempotency-Key",),
        body_content_types=("application/json",),
        result="json",
    ),
    "deleteJob": Operation(
        operation_id="deleteJob",
        method="DELETE",
        path="/api/generate/{job_id}",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "deleteUpload": Operation(
        operation_id="deleteUpload",
        method="DELETE",
        path="/api/uploads/{upload_id}",
        authenticated=True,
        path_params=("upload_id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getCoin": Operation(
        operation_id="getCoin",
        method="GET",
        path="/v1/public/coins/{songId}",
        authenticated=False,
        path_params=("songId",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getCoinTrades": Operation(
        operation_id="getCoinTrades",
        method="GET",
        path="/v1/public/coins/{songId}/trades",
        authenticated=False,
        path_params=("songId",),
        query_params=("cursor", "limit"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getCreator": Operation(
        operation_id="getCreator",
        method="GET",
        path="/v1/public/creators/{address}",
        authenticated=False,
        path_params=("address",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getHealth": Operation(
        operation_id="getHealth",
        method="GET",
        path="/health",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getJob": Operation(
        operation_id="getJob",
        method="GET",
        path="/api/generate/{job_id}",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=("If-None-Match",),
        body_content_types=(),
        result="json",
    ),
    "getLiveness": Operation(
        operation_id="getLiveness",
        method="GET",
        path="/health/live",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getLosslessDownload": Operation(
        operation_id="getLosslessDownload",
        method="GET",
        path="/api/generate/{job_id}/download/{format}",
        authenticated=True,
        path_params=("job_id", "format"),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getMetrics": Operation(
        operation_id="getMetrics",
        method="GET",
        path="/metrics",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="text",
    ),
    "getNft": Operation(
        operation_id="getNft",
        method="GET",
        path="/v1/nft/{id}",
        authenticated=True,
        path_params=("id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getPool": Operation(
        operation_id="getPool",
        method="GET",
        path="/v1/trading/pools/{songId}",
        authenticated=True,
        path_params=("songId",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getPoolHistory": Operation(
        operation_id="getPoolHistory",
        method="GET",
        path="/v1/trading/pools/{songId}/history",
        authenticated=False,
        path_params=("songId",),
        query_params=("cursor", "limit"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getPortfolio": Operation(
        operation_id="getPortfolio",
        method="GET",
        path="/v1/public/portfolios/{address}",
        authenticated=False,
        path_params=("address",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getPreview": Operation(
        operation_id="getPreview",
        method="GET",
        path="/api/previews/{session_id}",
        authenticated=True,
        path_params=("session_id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getProfile": Operation(
        operation_id="getProfile",
        method="GET",
        path="/v1/user/profile",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getPublicSong": Operation(
        operation_id="getPublicSong",
        method="GET",
        path="/v1/public/songs/{songId}",
        authenticated=False,
        path_params=("songId",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getReadiness": Operation(
        operation_id="getReadiness",
        method="GET",
        path="/health/ready",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getSignInNonce": Operation(
        operation_id="getSignInNonce",
        method="GET",
        path="/api/auth/nonce",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "getWebhookSecret": Operation(
        operation_id="getWebhookSecret",
        method="GET",
        path="/api/webhooks/secret",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "issueSignature": Operation(
        operation_id="issueSignature",
        method="POST",
        path="/api/signature",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Idempotency-Key",),
        body_content_types=("application/json",),
        result="json",
    ),
    "listJobs": Operation(
        operation_id="listJobs",
        method="GET",
        path="/api/generate",
        authenticated=True,
        path_params=(),
        query_params=("cursor", "limit", "filter", "q"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "listPools": Operation(
        operation_id="listPools",
        method="GET",
        path="/v1/trading/pools",
        authenticated=True,
        path_params=(),
        query_params=("cursor", "limit"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "listPublicSongs": Operation(
        operation_id="listPublicSongs",
        method="GET",
        path="/v1/public/songs",
        authenticated=False,
        path_params=(),
        query_params=("cursor", "limit", "sort", "q"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "listUploads": Operation(
        operation_id="listUploads",
        method="GET",
        path="/api/uploads",
        authenticated=True,
        path_params=(),
        query_params=("cursor", "limit"),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "mintAuthorization": Operation(
        operation_id="mintAuthorization",
        method="POST",
        path="/v1/nft/mint",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Idempotency-Key",),
        body_content_types=("application/json",),
        result="json",
    ),
    "publishMetadata": Operation(
        operation_id="publishMetadata",
        method="POST",
        path="/api/metadata",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Idempotency-Key",),
        body_content_types=("application/json",),
        result="json",
    ),
    "renameJob": Operation(
        operation_id="renameJob",
        method="PATCH",
        path="/api/generate/{job_id}",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=(),
        body_content_types=("application/json",),
        result="json",
    ),
    "restoreJob": Operation(
        operation_id="restoreJob",
        method="POST",
        path="/api/generate/{job_id}/restore",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "rotateWebhookSecret": Operation(
        operation_id="rotateWebhookSecret",
        method="POST",
        path="/api/webhooks/secret/rotate",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=(),
        result="json",
    ),
    "signIn": Operation(
        operation_id="signIn",
        method="POST",
        path="/api/auth/verify",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=("application/json",),
        result="json",
    ),
    "signInWithFarcaster": Operation(
        operation_id="signInWithFarcaster",
        method="POST",
        path="/api/auth/farcaster",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=("application/json",),
        result="json",
    ),
    "signInWithQuickAuth": Operation(
        operation_id="signInWithQuickAuth",
        method="POST",
        path="/api/auth/quick-auth",
        authenticated=False,
        path_params=(),
        query_params=(),
        header_params=(),
        body_content_types=("application/json",),
        result="json",
    ),
    "streamJobEvents": Operation(
        operation_id="streamJobEvents",
        method="GET",
        path="/api/generate/{job_id}/events",
        authenticated=True,
        path_params=("job_id",),
        query_params=(),
        header_params=("Last-Event-ID",),
        body_content_types=(),
        result="events",
    ),
    "uploadAudio": Operation(
        operation_id="uploadAudio",
        method="POST",
        path="/api/uploads",
        authenticated=True,
        path_params=(),
        query_params=(),
        header_params=("Songmint-Rights-Confirmed", "Songmint-Upload-Name"),
        body_content_types=("audio/wav", "audio/flac", "audio/mpeg", "application/octet-stream"),
        result="json",
    ),
}

#: sha256 (16 hex digits) of each component schema's canonical JSON (sorted keys, no spaces).
SCHEMA_FINGERPRINTS: Final[Mapping[str, str]] = {
    "AuthNonce": "0ae1ae3e06c69c9b",
    "AuthVerifyRequest": "419357ea0916fb95",
    "Coin": "bf40cbf6024f7f0f",
    "CoinAllocation": "4f9718f701defa60",
    "CoinPool": "af46543072f373ff",
    "CoinTrade": "c631fe6149f2f18c",
    "CoinTrades": "82a7c15f38b1e9e7",
    "ContentCredentials": "c299e40be73487a5",
    "CreatorProfile": "718acd09b19b108b",
    "DailyLimitError": "a9b018388b337038",
    "EarlierSong": "a5e4e3c6cf2b6c90",
    "EditOf": "3c940a7b00688b4f",
    "EditOfVariantB": "056bae1b22ce82e9",
    "EditRequest": "8e5154f481dde333",
    "EditRequestVariantB": "5a762abe44462ffd",
    "ErrorCode": "2a4035dcbb5eeb71",
    "ErrorVariantA": "6695763d7b872f31",
    "ErrorVariantC": "74c1b3e027705174",
    "FarcasterSignInRequest": "bd1cf056259fd66b",
    "GenerateAccepted": "fc54a6c7f14e9ca8",
    "GenerateRequest": "45992152df71c656",
    "GenerateRequestVariantB": "bccb3d651f89120c",
    "GenerateResultVariantB": "b6a082ba0a22c0d4",
    "Health": "1e531b6f774460f3",
    "JobCancelled": "049bb34f9dc74f24",
    "JobList": "4a65a434a7f015c3",
    "JobStatus": "39f1453924833ed8",
    "JobSummary": "d9045751a31d4b3d",
    "ListedUpload": "d02af104f6f07a40",
    "Liveness": "60c37565ac025466",
    "LosslessFiles": "263511302756c23a",
    "LosslessFilesVariantB": "ee72e5fb585a575d",
    "MetadataRequest": "6f9a1f879a1a8f93",
    "MetadataRequestVariantB": "092f504af339011a",
    "MetadataResponse": "f3f2216a973d2146",
    "MetadataResponseVariantB": "13d279e32f11ba51",
    "ModelRecord": "c32c1c6147716201",
    "Nft": "69bf7bdcbc28a750",
    "NftMintRequest": "9fbac56dc4b1460d",
    "NftMintResponse": "c65c7a27aabd0ac9",
    "PoolHistory": "f34637bde3ae1a0b",
    "PoolSwap": "600fe23fd9c11b0c",
    "Portfolio": "c967945747ddcb0a",
    "PreviewAccepted": "7dd1eab49fa87911",
    "PreviewRequest": "8f2eb9a1497a54cb",
    "PreviewStatus": "7a0f5f10a6f8401b",
    "ProfileChange": "899718133776e5d5",
    "PublicLaunchedSong": "12d98d0b524df421",
    "PublicProfile": "3a366c639bd09bfb",
    "PublicSong": "fafb087fe793c444",
    "PublicSongs": "5643ec4c61cc6b5b",
    "QuickAuthSignInRequest": "28531069363140b5",
    "Readiness": "317657b58e0cbbf9",
    "RenameJobRequest": "1754f5bd752c0762",
    "SaleQuote": "31bb7c540ba1f031",
    "SessionToken": "b0d0d9369964b605",
    "SignatureRequest": "e8058fad45f67e99",
    "SignatureRequestVariantB": "d407ba052fcaa899",
    "SignatureResponse": "ce5882d78701be1b",
    "SignatureResponseVariantB": "b2181473438343bd",
    "SongAttributes": "d908f7785a042ebf",
    "SongDownload": "1ff03ac1c0197471",
    "TradingPool": "c7b19c6f006142f2",
    "TradingPools": "9e7fdf167673c430",
    "Upload": "62fb8e8bf273340c",
    "UploadDeleted": "369f5bcdfa4ced27",
    "UploadList": "973314afda580dbd",
    "UserProfile": "9bc3db18c1629987",
    "WebhookPayload": "26c23bf457e6f996",
    "WebhookSecret": "01f78ea6f748b13d",
}

#: sha256 (16 hex digits) of each operation's canonical JSON: {"method", "path", "operation"}.
OPERATION_FINGERPRINTS: Final[Mapping[str, str]] = {
    "cancelJob": "d6c0e71afc408488",
    "changeProfile": "2fdb249211bb97f8",
    "createJob": "b6c9141b70ee1b60",
    "createJobV1": "86158b07deb4bfff",
    "createPreview": "afda7f925d815b2a",
    "deleteJob": "ddb99d714d241f9f",
    "deleteUpload": "a9e8c84cc6bf8478",
    "getCoin": "f027698cc85dca27",
    "getCoinTrades": "6c6d9f24d12b6159",
    "getCreator": "134759ef8013abf0",
    "getHealth": "3d2c41a300731836",
    "getJob": "25ca4337454fffe2",
    "getLiveness": "c3d29fd244dd779e",
    "getLosslessDownload": "ad5221a8a08f5171",
    "getMetrics": "095cf959f72628ff",
    "getNft": "43692ed82a9b1fbc",
    "getPool": "b205a001dc1f797a",
    "getPoolHistory": "e6add81dcf662b38",
    "getPortfolio": "a1ce2f8c4239c6aa",
    "getPreview": "f7c01e2e57233bc8",
    "getProfile": "81eea6bcc5213c03",
    "getPublicSong": "27e299624dec4440",
    "getReadiness": "90e45f7ed6885753",
    "getSignInNonce": "6bf611ed5856a373",
    "getWebhookSecret": "1631ebf803b54c9b",
    "issueSignature": "340b1869be2ce27d",
    "listJobs": "819963fa32c68040",
    "listPools": "e272833eca10fe95",
    "listPublicSongs": "d76639a3bc995ea0",
    "listUploads": "e9d703d7aadecace",
    "mintAuthorization": "70837ad7a52fc222",
    "publishMetadata": "a9824dfa8ac3b57b",
    "renameJob": "319ff931c30f804a",
    "restoreJob": "9125b89c70ed5aa2",
    "rotateWebhookSecret": "e44be334430e22fd",
    "signIn": "c988487640489e8c",
    "signInWithFarcaster": "f2e6311a08d486e5",
    "signInWithQuickAuth": "863ec13b7ca779d8",
    "streamJobEvents": "fa1f9164c44e16a1",
    "uploadAudio": "e9e328ceb8483548",
}


class SyncOperations:
    """One method per operation of the API, for `songmint.Client`."""

    def _call(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
        json: object = None,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> object:
        raise NotImplementedError

    def _events(
        self, operation: Operation, *, path: Mapping[str, str], query: Mapping[str, object], headers: Mapping[str, str | None]
    ) -> Iterator[ServerSentEvent]:
        raise NotImplementedError

    def cancel_job(self, job_id: str) -> JobCancelled:
        """POST /api/generate/{job_id}/cancel: Cancel a queued or processing job (owner only; extension of the spec)"""
        return cast("JobCancelled", self._call(OPERATIONS["cancelJob"], path={"job_id": job_id}, query={}, headers={}))

    def change_profile(self, body: ProfileChange) -> PublicProfile:
        """PATCH /v1/user/profile: Extension: set your display name, bio and avatar"""
        return cast("PublicProfile", self._call(OPERATIONS["changeProfile"], path={}, query={}, headers={}, json=body))

    def create_job(self, body: GenerateRequest | GenerateRequestVariantB, *, prefer: str | None = None, idempotency_key: str | None = None) -> GenerateResultVariantB | GenerateAccepted | CreateJobResponse202Queued | CreateJobResponse202Processing | CreateJobResponse202Completed | CreateJobResponse202Failed | CreateJobResponse202Cancelled:
        """POST /api/generate: Start a generation job (Variant A), or generate synchronously with `Prefer: wait` (Variant B)"""
        return cast("GenerateResultVariantB | GenerateAccepted | CreateJobResponse202Queued | CreateJobResponse202Processing | CreateJobResponse202Completed | CreateJobResponse202Failed | CreateJobResponse202Cancelled", self._call(OPERATIONS["createJob"], path={}, query={}, headers={"Prefer": prefer, "Idempotency-Key": idempotency_key}, json=body))

    def create_job_v1(self, body: GenerateRequest, *, idempotency_key: str | None = None) -> GenerateAccepted:
        """POST /v1/music/generate: Variant C: start a generation job (same fields as POST /api/generate)"""
        return cast("GenerateAccepted", self._call(OPERATIONS["createJobV1"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    def create_preview(self, body: PreviewRequest, *, idempotency_key: str | None = None) -> PreviewAccepted:
        """POST /api/previews: Queue a short preview of a prompt before a full generation (extension of the spec)"""
        return cast("PreviewAccepted", self._call(OPERATIONS["createPreview"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    def delete_job(self, job_id: str) -> JobSummary:
        """DELETE /api/generate/{job_id}: Move one of your songs to the trash (extension of the spec)"""
        return cast("JobSummary", self._call(OPERATIONS["deleteJob"], path={"job_id": job_id}, query={}, headers={}))

    def delete_upload(self, upload_id: str) -> UploadDeleted:
        """DELETE /api/uploads/{upload_id}: Delete an upload of yours (extension of the spec)"""
        return cast("UploadDeleted", self._call(OPERATIONS["deleteUpload"], path={"upload_id": upload_id}, query={}, headers={}))

    def get_coin(self, song_id: str) -> Coin:
        """GET /v1/public/coins/{songId}: Extension: the coin page of a launched song (price per 1M tokens and its 24 h change, market cap, volume, holders, creator earnings)"""
        return cast("Coin", self._call(OPERATIONS["getCoin"], path={"songId": song_id}, query={}, headers={}))

    def get_coin_trades(self, song_id: str, *, cursor: str | None = None, limit: str | None = None) -> CoinTrades:
        """GET /v1/public/coins/{songId}/trades: Extension: a coin's activity feed (each trade's side, wallet, amounts, launch fee, time and transaction), newest first"""
        return cast("CoinTrades", self._call(OPERATIONS["getCoinTrades"], path={"songId": song_id}, query={"cursor": cursor, "limit": limit}, headers={}))

    def get_creator(self, address: str) -> CreatorProfile:
        """GET /v1/public/creators/{address}: Extension: a creator's profile (name, bio, avatar; minted songs, launched coins with market caps, total earnings)"""
        return cast("CreatorProfile", self._call(OPERATIONS["getCreator"], path={"address": address}, query={}, headers={}))

    def get_health(self) -> Health:
        """GET /health: Basic health check"""
        return cast("Health", self._call(OPERATIONS["getHealth"], path={}, query={}, headers={}))

    @overload
    def get_job(self, job_id: str) -> JobStatus: ...
    @overload
    def get_job(self, job_id: str, *, if_none_match: str) -> JobStatus | None: ...
    def get_job(self, job_id: str, *, if_none_match: str | None = None) -> JobStatus | None:
        """GET /api/generate/{job_id}: Job status (owner only) (None: 304 Not Modified, for `if_none_match`)"""
        return cast("JobStatus | None", self._call(OPERATIONS["getJob"], path={"job_id": job_id}, query={}, headers={"If-None-Match": if_none_match}))

    def get_liveness(self) -> Liveness:
        """GET /health/live: Liveness: the process runs"""
        return cast("Liveness", self._call(OPERATIONS["getLiveness"], path={}, query={}, headers={}))

    def get_lossless_download(self, job_id: str, format: Literal["mp3", "wav", "flac"]) -> SongDownload:
        """GET /api/generate/{job_id}/download/{format}: A one-hour download URL of a song's MP3, WAV or FLAC, saved under the song's name (owner only; extension of the spec)"""
        return cast("SongDownload", self._call(OPERATIONS["getLosslessDownload"], path={"job_id": job_id, "format": format}, query={}, headers={}))

    def get_metrics(self) -> str:
        """GET /metrics: Prometheus text exposition"""
        return cast("str", self._call(OPERATIONS["getMetrics"], path={}, query={}, headers={}))

    def get_nft(self, id: str) -> Nft:
        """GET /v1/nft/{id}: Variant C: a minted token (indexed from SongMinted events)"""
        return cast("Nft", self._call(OPERATIONS["getNft"], path={"id": id}, query={}, headers={}))

    def get_pool(self, song_id: str) -> TradingPool:
        """GET /v1/trading/pools/{songId}: Variant C: the pool of one song"""
        return cast("TradingPool", self._call(OPERATIONS["getPool"], path={"songId": song_id}, query={}, headers={}))

    def get_pool_history(self, song_id: str, *, cursor: str | None = None, limit: str | None = None) -> PoolHistory:
        """GET /v1/trading/pools/{songId}/history: Variant C: the swap history of one song pool (price after each swap, newest first), public"""
        return cast("PoolHistory", self._call(OPERATIONS["getPoolHistory"], path={"songId": song_id}, query={"cursor": cursor, "limit": limit}, headers={}))

    def get_portfolio(self, address: str) -> Portfolio:
        """GET /v1/public/portfolios/{address}: Extension: a wallet's portfolio (song tokens held and their value in ETH, fees and allocations to claim)"""
        return cast("Portfolio", self._call(OPERATIONS["getPortfolio"], path={"address": address}, query={}, headers={}))

    def get_preview(self, session_id: str) -> PreviewStatus:
        """GET /api/previews/{session_id}: Preview status; when completed, a fresh one-hour signed URL of the clip (owner only)"""
        return cast("PreviewStatus", self._call(OPERATIONS["getPreview"], path={"session_id": session_id}, query={}, headers={}))

    def get_profile(self) -> UserProfile:
        """GET /v1/user/profile: Variant C: the user profile and statistics"""
        return cast("UserProfile", self._call(OPERATIONS["getProfile"], path={}, query={}, headers={}))

    def get_public_song(self, song_id: str) -> PublicSong:
        """GET /v1/public/songs/{songId}: Extension: one minted song as a visitor sees it (title, cover, audio, lyrics), no token needed"""
        return cast("PublicSong", self._call(OPERATIONS["getPublicSong"], path={"songId": song_id}, query={}, headers={}))

    def get_readiness(self) -> Readiness:
        """GET /health/ready: Readiness: database and a live GPU/CPU worker (503 otherwise)"""
        return cast("Readiness", self._call(OPERATIONS["getReadiness"], path={}, query={}, headers={}))

    def get_sign_in_nonce(self) -> AuthNonce:
        """GET /api/auth/nonce: Issue a single-use Sign-In with Ethereum nonce"""
        return cast("AuthNonce", self._call(OPERATIONS["getSignInNonce"], path={}, query={}, headers={}))

    def get_webhook_secret(self) -> WebhookSecret:
        """GET /api/webhooks/secret: Your webhook signing secret (made on first use; extension of the spec)"""
        return cast("WebhookSecret", self._call(OPERATIONS["getWebhookSecret"], path={}, query={}, headers={}))

    def issue_signature(self, body: SignatureRequest | SignatureRequestVariantB, *, idempotency_key: str | None = None) -> SignatureResponse | SignatureResponseVariantB:
        """POST /api/signature: Issue the one-time platform signature that authorizes minting a completed job (Variants A and B)"""
        return cast("SignatureResponse | SignatureResponseVariantB", self._call(OPERATIONS["issueSignature"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    def list_jobs(self, *, cursor: str | None = None, limit: int | None = None, filter: Literal["all", "minted", "unminted", "edits", "failed", "trash"] | None = None, q: str | None = None) -> JobList:
        """GET /api/generate: The caller's jobs, newest first, cursor-paginated; the library's filters and search (extension of the spec)"""
        return cast("JobList", self._call(OPERATIONS["listJobs"], path={}, query={"cursor": cursor, "limit": limit, "filter": filter, "q": q}, headers={}))

    def list_pools(self, *, cursor: str | None = None, limit: str | None = None) -> TradingPools:
        """GET /v1/trading/pools: Variant C: song pools with price, liquidity, fees per party, 24 h volume (newest launch first)"""
        return cast("TradingPools", self._call(OPERATIONS["listPools"], path={}, query={"cursor": cursor, "limit": limit}, headers={}))

    def list_public_songs(self, *, cursor: str | None = None, limit: str | None = None, sort: Literal["newest", "market_cap", "volume_24h"] | None = None, q: str | None = None) -> PublicSongs:
        """GET /v1/public/songs: Extension: launched songs as a visitor sees them (title, cover, audio, price, market cap, 24 h change), no token needed"""
        return cast("PublicSongs", self._call(OPERATIONS["listPublicSongs"], path={}, query={"cursor": cursor, "limit": limit, "sort": sort, "q": q}, headers={}))

    def list_uploads(self, *, cursor: str | None = None, limit: int | None = None) -> UploadList:
        """GET /api/uploads: The caller's uploads, newest first, cursor-paginated (extension of the spec)"""
        return cast("UploadList", self._call(OPERATIONS["listUploads"], path={}, query={"cursor": cursor, "limit": limit}, headers={}))

    def mint_authorization(self, body: NftMintRequest, *, idempotency_key: str | None = None) -> NftMintResponse:
        """POST /v1/nft/mint: Variant C: mint authorization for a completed job, with the contract call to make"""
        return cast("NftMintResponse", self._call(OPERATIONS["mintAuthorization"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    def publish_metadata(self, body: MetadataRequest | MetadataRequestVariantB, *, idempotency_key: str | None = None) -> MetadataResponse | MetadataResponseVariantB:
        """POST /api/metadata: Upload song metadata (and cover) to IPFS; returns ipfs://<cid> and the sha256 of the stored JSON"""
        return cast("MetadataResponse | MetadataResponseVariantB", self._call(OPERATIONS["publishMetadata"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    def rename_job(self, job_id: str, body: RenameJobRequest) -> JobSummary:
        """PATCH /api/generate/{job_id}: Rename one of your songs that is not minted (extension of the spec)"""
        return cast("JobSummary", self._call(OPERATIONS["renameJob"], path={"job_id": job_id}, query={}, headers={}, json=body))

    def restore_job(self, job_id: str) -> JobSummary:
        """POST /api/generate/{job_id}/restore: Take one of your songs out of the trash (extension of the spec)"""
        return cast("JobSummary", self._call(OPERATIONS["restoreJob"], path={"job_id": job_id}, query={}, headers={}))

    def rotate_webhook_secret(self) -> WebhookSecret:
        """POST /api/webhooks/secret/rotate: Replace your webhook signing secret; later attempts, retries included, are signed with the new one"""
        return cast("WebhookSecret", self._call(OPERATIONS["rotateWebhookSecret"], path={}, query={}, headers={}))

    def sign_in(self, body: AuthVerifyRequest) -> SessionToken:
        """POST /api/auth/verify: Exchange a signed EIP-4361 message for a session JWT"""
        return cast("SessionToken", self._call(OPERATIONS["signIn"], path={}, query={}, headers={}, json=body))

    def sign_in_with_farcaster(self, body: FarcasterSignInRequest) -> SessionToken:
        """POST /api/auth/farcaster: Sign In With Farcaster (FIP-11) for a session JWT"""
        return cast("SessionToken", self._call(OPERATIONS["signInWithFarcaster"], path={}, query={}, headers={}, json=body))

    def sign_in_with_quick_auth(self, body: QuickAuthSignInRequest) -> SessionToken:
        """POST /api/auth/quick-auth: Exchange a Farcaster Mini App's Quick Auth token for a session JWT"""
        return cast("SessionToken", self._call(OPERATIONS["signInWithQuickAuth"], path={}, query={}, headers={}, json=body))

    def stream_job_events(self, job_id: str, *, last_event_id: str | None = None) -> Iterator[ServerSentEvent]:
        """GET /api/generate/{job_id}/events: The job's progress as Server-Sent Events (owner only; extension of the spec)"""
        return self._events(OPERATIONS["streamJobEvents"], path={"job_id": job_id}, query={}, headers={"Last-Event-ID": last_event_id})

    def upload_audio(self, body: bytes, *, content_type: Literal["audio/wav", "audio/flac", "audio/mpeg", "application/octet-stream"] = "application/octet-stream", songmint_rights_confirmed: Literal["true"], songmint_upload_name: str | None = None) -> Upload:
        """POST /api/uploads: Upload audio of your own to edit (extension of the spec)"""
        return cast("Upload", self._call(OPERATIONS["uploadAudio"], path={}, query={}, headers={"Songmint-Rights-Confirmed": songmint_rights_confirmed, "Songmint-Upload-Name": songmint_upload_name}, content=body, content_type=content_type))


class AsyncOperations:
    """One coroutine per operation of the API, for `songmint.AsyncClient`."""

    async def _call(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
        json: object = None,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> object:
        raise NotImplementedError

    def _events(
        self, operation: Operation, *, path: Mapping[str, str], query: Mapping[str, object], headers: Mapping[str, str | None]
    ) -> AsyncIterator[ServerSentEvent]:
        raise NotImplementedError

    async def cancel_job(self, job_id: str) -> JobCancelled:
        """POST /api/generate/{job_id}/cancel: Cancel a queued or processing job (owner only; extension of the spec)"""
        return cast("JobCancelled", await self._call(OPERATIONS["cancelJob"], path={"job_id": job_id}, query={}, headers={}))

    async def change_profile(self, body: ProfileChange) -> PublicProfile:
        """PATCH /v1/user/profile: Extension: set your display name, bio and avatar"""
        return cast("PublicProfile", await self._call(OPERATIONS["changeProfile"], path={}, query={}, headers={}, json=body))

    async def create_job(self, body: GenerateRequest | GenerateRequestVariantB, *, prefer: str | None = None, idempotency_key: str | None = None) -> GenerateResultVariantB | GenerateAccepted | CreateJobResponse202Queued | CreateJobResponse202Processing | CreateJobResponse202Completed | CreateJobResponse202Failed | CreateJobResponse202Cancelled:
        """POST /api/generate: Start a generation job (Variant A), or generate synchronously with `Prefer: wait` (Variant B)"""
        return cast("GenerateResultVariantB | GenerateAccepted | CreateJobResponse202Queued | CreateJobResponse202Processing | CreateJobResponse202Completed | CreateJobResponse202Failed | CreateJobResponse202Cancelled", await self._call(OPERATIONS["createJob"], path={}, query={}, headers={"Prefer": prefer, "Idempotency-Key": idempotency_key}, json=body))

    async def create_job_v1(self, body: GenerateRequest, *, idempotency_key: str | None = None) -> GenerateAccepted:
        """POST /v1/music/generate: Variant C: start a generation job (same fields as POST /api/generate)"""
        return cast("GenerateAccepted", await self._call(OPERATIONS["createJobV1"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    async def create_preview(self, body: PreviewRequest, *, idempotency_key: str | None = None) -> PreviewAccepted:
        """POST /api/previews: Queue a short preview of a prompt before a full generation (extension of the spec)"""
        return cast("PreviewAccepted", await self._call(OPERATIONS["createPreview"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    async def delete_job(self, job_id: str) -> JobSummary:
        """DELETE /api/generate/{job_id}: Move one of your songs to the trash (extension of the spec)"""
        return cast("JobSummary", await self._call(OPERATIONS["deleteJob"], path={"job_id": job_id}, query={}, headers={}))

    async def delete_upload(self, upload_id: str) -> UploadDeleted:
        """DELETE /api/uploads/{upload_id}: Delete an upload of yours (extension of the spec)"""
        return cast("UploadDeleted", await self._call(OPERATIONS["deleteUpload"], path={"upload_id": upload_id}, query={}, headers={}))

    async def get_coin(self, song_id: str) -> Coin:
        """GET /v1/public/coins/{songId}: Extension: the coin page of a launched song (price per 1M tokens and its 24 h change, market cap, volume, holders, creator earnings)"""
        return cast("Coin", await self._call(OPERATIONS["getCoin"], path={"songId": song_id}, query={}, headers={}))

    async def get_coin_trades(self, song_id: str, *, cursor: str | None = None, limit: str | None = None) -> CoinTrades:
        """GET /v1/public/coins/{songId}/trades: Extension: a coin's activity feed (each trade's side, wallet, amounts, launch fee, time and transaction), newest first"""
        return cast("CoinTrades", await self._call(OPERATIONS["getCoinTrades"], path={"songId": song_id}, query={"cursor": cursor, "limit": limit}, headers={}))

    async def get_creator(self, address: str) -> CreatorProfile:
        """GET /v1/public/creators/{address}: Extension: a creator's profile (name, bio, avatar; minted songs, launched coins with market caps, total earnings)"""
        return cast("CreatorProfile", await self._call(OPERATIONS["getCreator"], path={"address": address}, query={}, headers={}))

    async def get_health(self) -> Health:
        """GET /health: Basic health check"""
        return cast("Health", await self._call(OPERATIONS["getHealth"], path={}, query={}, headers={}))

    @overload
    async def get_job(self, job_id: str) -> JobStatus: ...
    @overload
    async def get_job(self, job_id: str, *, if_none_match: str) -> JobStatus | None: ...
    async def get_job(self, job_id: str, *, if_none_match: str | None = None) -> JobStatus | None:
        """GET /api/generate/{job_id}: Job status (owner only) (None: 304 Not Modified, for `if_none_match`)"""
        return cast("JobStatus | None", await self._call(OPERATIONS["getJob"], path={"job_id": job_id}, query={}, headers={"If-None-Match": if_none_match}))

    async def get_liveness(self) -> Liveness:
        """GET /health/live: Liveness: the process runs"""
        return cast("Liveness", await self._call(OPERATIONS["getLiveness"], path={}, query={}, headers={}))

    async def get_lossless_download(self, job_id: str, format: Literal["mp3", "wav", "flac"]) -> SongDownload:
        """GET /api/generate/{job_id}/download/{format}: A one-hour download URL of a song's MP3, WAV or FLAC, saved under the song's name (owner only; extension of the spec)"""
        return cast("SongDownload", await self._call(OPERATIONS["getLosslessDownload"], path={"job_id": job_id, "format": format}, query={}, headers={}))

    async def get_metrics(self) -> str:
        """GET /metrics: Prometheus text exposition"""
        return cast("str", await self._call(OPERATIONS["getMetrics"], path={}, query={}, headers={}))

    async def get_nft(self, id: str) -> Nft:
        """GET /v1/nft/{id}: Variant C: a minted token (indexed from SongMinted events)"""
        return cast("Nft", await self._call(OPERATIONS["getNft"], path={"id": id}, query={}, headers={}))

    async def get_pool(self, song_id: str) -> TradingPool:
        """GET /v1/trading/pools/{songId}: Variant C: the pool of one song"""
        return cast("TradingPool", await self._call(OPERATIONS["getPool"], path={"songId": song_id}, query={}, headers={}))

    async def get_pool_history(self, song_id: str, *, cursor: str | None = None, limit: str | None = None) -> PoolHistory:
        """GET /v1/trading/pools/{songId}/history: Variant C: the swap history of one song pool (price after each swap, newest first), public"""
        return cast("PoolHistory", await self._call(OPERATIONS["getPoolHistory"], path={"songId": song_id}, query={"cursor": cursor, "limit": limit}, headers={}))

    async def get_portfolio(self, address: str) -> Portfolio:
        """GET /v1/public/portfolios/{address}: Extension: a wallet's portfolio (song tokens held and their value in ETH, fees and allocations to claim)"""
        return cast("Portfolio", await self._call(OPERATIONS["getPortfolio"], path={"address": address}, query={}, headers={}))

    async def get_preview(self, session_id: str) -> PreviewStatus:
        """GET /api/previews/{session_id}: Preview status; when completed, a fresh one-hour signed URL of the clip (owner only)"""
        return cast("PreviewStatus", await self._call(OPERATIONS["getPreview"], path={"session_id": session_id}, query={}, headers={}))

    async def get_profile(self) -> UserProfile:
        """GET /v1/user/profile: Variant C: the user profile and statistics"""
        return cast("UserProfile", await self._call(OPERATIONS["getProfile"], path={}, query={}, headers={}))

    async def get_public_song(self, song_id: str) -> PublicSong:
        """GET /v1/public/songs/{songId}: Extension: one minted song as a visitor sees it (title, cover, audio, lyrics), no token needed"""
        return cast("PublicSong", await self._call(OPERATIONS["getPublicSong"], path={"songId": song_id}, query={}, headers={}))

    async def get_readiness(self) -> Readiness:
        """GET /health/ready: Readiness: database and a live GPU/CPU worker (503 otherwise)"""
        return cast("Readiness", await self._call(OPERATIONS["getReadiness"], path={}, query={}, headers={}))

    async def get_sign_in_nonce(self) -> AuthNonce:
        """GET /api/auth/nonce: Issue a single-use Sign-In with Ethereum nonce"""
        return cast("AuthNonce", await self._call(OPERATIONS["getSignInNonce"], path={}, query={}, headers={}))

    async def get_webhook_secret(self) -> WebhookSecret:
        """GET /api/webhooks/secret: Your webhook signing secret (made on first use; extension of the spec)"""
        return cast("WebhookSecret", await self._call(OPERATIONS["getWebhookSecret"], path={}, query={}, headers={}))

    async def issue_signature(self, body: SignatureRequest | SignatureRequestVariantB, *, idempotency_key: str | None = None) -> SignatureResponse | SignatureResponseVariantB:
        """POST /api/signature: Issue the one-time platform signature that authorizes minting a completed job (Variants A and B)"""
        return cast("SignatureResponse | SignatureResponseVariantB", await self._call(OPERATIONS["issueSignature"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    async def list_jobs(self, *, cursor: str | None = None, limit: int | None = None, filter: Literal["all", "minted", "unminted", "edits", "failed", "trash"] | None = None, q: str | None = None) -> JobList:
        """GET /api/generate: The caller's jobs, newest first, cursor-paginated; the library's filters and search (extension of the spec)"""
        return cast("JobList", await self._call(OPERATIONS["listJobs"], path={}, query={"cursor": cursor, "limit": limit, "filter": filter, "q": q}, headers={}))

    async def list_pools(self, *, cursor: str | None = None, limit: str | None = None) -> TradingPools:
        """GET /v1/trading/pools: Variant C: song pools with price, liquidity, fees per party, 24 h volume (newest launch first)"""
        return cast("TradingPools", await self._call(OPERATIONS["listPools"], path={}, query={"cursor": cursor, "limit": limit}, headers={}))

    async def list_public_songs(self, *, cursor: str | None = None, limit: str | None = None, sort: Literal["newest", "market_cap", "volume_24h"] | None = None, q: str | None = None) -> PublicSongs:
        """GET /v1/public/songs: Extension: launched songs as a visitor sees them (title, cover, audio, price, market cap, 24 h change), no token needed"""
        return cast("PublicSongs", await self._call(OPERATIONS["listPublicSongs"], path={}, query={"cursor": cursor, "limit": limit, "sort": sort, "q": q}, headers={}))

    async def list_uploads(self, *, cursor: str | None = None, limit: int | None = None) -> UploadList:
        """GET /api/uploads: The caller's uploads, newest first, cursor-paginated (extension of the spec)"""
        return cast("UploadList", await self._call(OPERATIONS["listUploads"], path={}, query={"cursor": cursor, "limit": limit}, headers={}))

    async def mint_authorization(self, body: NftMintRequest, *, idempotency_key: str | None = None) -> NftMintResponse:
        """POST /v1/nft/mint: Variant C: mint authorization for a completed job, with the contract call to make"""
        return cast("NftMintResponse", await self._call(OPERATIONS["mintAuthorization"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    async def publish_metadata(self, body: MetadataRequest | MetadataRequestVariantB, *, idempotency_key: str | None = None) -> MetadataResponse | MetadataResponseVariantB:
        """POST /api/metadata: Upload song metadata (and cover) to IPFS; returns ipfs://<cid> and the sha256 of the stored JSON"""
        return cast("MetadataResponse | MetadataResponseVariantB", await self._call(OPERATIONS["publishMetadata"], path={}, query={}, headers={"Idempotency-Key": idempotency_key}, json=body))

    async def rename_job(self, job_id: str, body: RenameJobRequest) -> JobSummary:
        """PATCH /api/generate/{job_id}: Rename one of your songs that is not minted (extension of the spec)"""
        return cast("JobSummary", await self._call(OPERATIONS["renameJob"], path={"job_id": job_id}, query={}, headers={}, json=body))

    async def restore_job(self, job_id: str) -> JobSummary:
        """POST /api/generate/{job_id}/restore: Take one of your songs out of the trash (extension of the spec)"""
        return cast("JobSummary", await self._call(OPERATIONS["restoreJob"], path={"job_id": job_id}, query={}, headers={}))

    async def rotate_webhook_secret(self) -> WebhookSecret:
        """POST /api/webhooks/secret/rotate: Replace your webhook signing secret; later attempts, retries included, are signed with the new one"""
        return cast("WebhookSecret", await self._call(OPERATIONS["rotateWebhookSecret"], path={}, query={}, headers={}))

    async def sign_in(self, body: AuthVerifyRequest) -> SessionToken:
        """POST /api/auth/verify: Exchange a signed EIP-4361 message for a session JWT"""
        return cast("SessionToken", await self._call(OPERATIONS["signIn"], path={}, query={}, headers={}, json=body))

    async def sign_in_with_farcaster(self, body: FarcasterSignInRequest) -> SessionToken:
        """POST /api/auth/farcaster: Sign In With Farcaster (FIP-11) for a session JWT"""
        return cast("SessionToken", await self._call(OPERATIONS["signInWithFarcaster"], path={}, query={}, headers={}, json=body))

    async def sign_in_with_quick_auth(self, body: QuickAuthSignInRequest) -> SessionToken:
        """POST /api/auth/quick-auth: Exchange a Farcaster Mini App's Quick Auth token for a session JWT"""
        return cast("SessionToken", await self._call(OPERATIONS["signInWithQuickAuth"], path={}, query={}, headers={}, json=body))

    def stream_job_events(self, job_id: str, *, last_event_id: str | None = None) -> AsyncIterator[ServerSentEvent]:
        """GET /api/generate/{job_id}/events: The job's progress as Server-Sent Events (owner only; extension of the spec)"""
        return self._events(OPERATIONS["streamJobEvents"], path={"job_id": job_id}, query={}, headers={"Last-Event-ID": last_event_id})

    async def upload_audio(self, body: bytes, *, content_type: Literal["audio/wav", "audio/flac", "audio/mpeg", "application/octet-stream"] = "application/octet-stream", songmint_rights_confirmed: Literal["true"], songmint_upload_name: str | None = None) -> Upload:
        """POST /api/uploads: Upload audio of your own to edit (extension of the spec)"""
        return cast("Upload", await self._call(OPERATIONS["uploadAudio"], path={}, query={}, headers={"Songmint-Rights-Confirmed": songmint_rights_confirmed, "Songmint-Upload-Name": songmint_upload_name}, content=body, content_type=content_type))
