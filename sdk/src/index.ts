/**
 * @songmint/sdk: the Songmint API (sign-in, generation, metadata, mint signatures, profile) and
 * contracts (mint, launch, trade on Uniswap v4, fee claims), typed end to end.
 */
export { createSongmintApi, rateLimitOf, withSession } from './api/client.ts';
export type { CreateSongmintApiParameters, RateLimitQuota, SongmintApi } from './api/client.ts';
export { signIn, signInWithFarcaster, signInWithQuickAuth } from './api/auth.ts';
export type { Session, SignInParameters, SignInWithFarcasterParameters, SignInWithQuickAuthParameters } from './api/auth.ts';
export { cancelJob, editSong, generate, getJob, jobEvents, listJobs, waitForJob } from './api/generation.ts';
export type {
  CancelJobParameters,
  CompletedJob,
  EditSongParameters,
  GenerateParameters,
  GenerationJob,
  JobEvent,
  JobEventsParameters,
  JobPage,
  JobListFilter,
  JobProgress,
  JobStatus,
  JobSummary,
  ListJobsParameters,
  ModelRecord,
  SongEditSource,
  SongEditTask,
  WaitForJobParameters,
} from './api/generation.ts';
export { downloadSong, getDownloadLink } from './api/downloads.ts';
export { deleteSong, renameSong, restoreSong } from './api/library.ts';
export type { LibrarySongParameters, RenameSongParameters } from './api/library.ts';
export { deleteUpload, listUploads, uploadAudio } from './api/uploads.ts';
export type { ListedUpload, ListUploadsParameters, Upload, UploadAudioParameters, UploadFormat, UploadPage } from './api/uploads.ts';
export type { DownloadFormat, DownloadLink, LosslessDownloadParameters, LosslessFiles, LosslessFormat } from './api/downloads.ts';
export { createPreview, getPreview, waitForPreview } from './api/previews.ts';
export type { CompletedPreview, CreatePreviewParameters, PreviewStatus, QueuedPreview } from './api/previews.ts';
export { coverDataUri, uploadMetadata } from './api/metadata.ts';
export type { CoverImage, UploadedMetadata, UploadMetadataParameters } from './api/metadata.ts';
export { getMintSignature } from './api/signature.ts';
export type { GetMintSignatureParameters, MintSignature } from './api/signature.ts';
export { changeProfile, getNft, getPool, getPoolHistory, getPools, getProfile, getPublicSong, listPublicSongs } from './api/v1.ts';
export { getCoin, getCoinTrades, getCreator, getPortfolio } from './api/coins.ts';
export type { Coin, CoinPrice, CoinTrade, CoinTrades, CreatorProfile, GetCoinTradesParameters, Portfolio } from './api/coins.ts';
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, getWebhookSecret, rotateWebhookSecret, verifyWebhook } from './api/webhooks.ts';
export type { VerifyWebhookParameters, WebhookEvent, WebhookHeaders, WebhookSecret } from './api/webhooks.ts';
export type {
  ChangeProfileParameters,
  GetPoolHistoryParameters,
  GetPoolsParameters,
  IndexedNft,
  ListPublicSongsParameters,
  PoolHistory,
  PoolSwap,
  ProfileChange,
  PublicLaunchedSong,
  PublicProfile,
  PublicSong,
  PublicSongs,
  PublicSongsSort,
  TradingPool,
  TradingPools,
  UserProfile,
} from './api/v1.ts';

export type { SongmintChain, SongmintContracts } from './chain/context.ts';
export { connectSongmint, developmentAccount, DEVELOPMENT_PRIVATE_KEY, localBaseChain } from './chain/local.ts';
export type { ConnectParameters } from './chain/local.ts';
export { mintSong } from './chain/mint.ts';
export type { MintedSong, MintSongParameters } from './chain/mint.ts';
export { launchSong, MAX_ALLOCATION_BPS, readLaunchTerms } from './chain/launch.ts';
export type { LaunchedSong, LaunchSongParameters, LaunchTerms } from './chain/launch.ts';
export { buy, DEFAULT_DEADLINE_SECONDS, DEFAULT_SLIPPAGE_BPS, sell } from './chain/trade.ts';
export { checkAffordable, checkPaysSomething, quoteTrade, readBalances, slippageLimit } from './chain/quote.ts';
export { quoteSellMax } from './chain/sell-max.ts';
export type { SellableMax } from './chain/sell-max.ts';
export type { QuoteParameters, TradeBalances, TradeQuote, TradeSide } from './chain/quote.ts';
export { BASE_BLOCK_SECONDS, nextBlock } from './chain/next-block.ts';
export type { NextBlock } from './chain/next-block.ts';
export type { SwapAmount, SwapParameters, SwapResult } from './chain/trade.ts';
export { approvePermit2, PERMIT_SINGLE_TYPES, permitSingleTypedData, preparePermitSingle, signPermitSingle } from './chain/permit2.ts';
export type { PermitSingle } from './chain/permit2.ts';
export {
  encodePermit2Permit,
  encodeSweepEth,
  encodeV4SingleSwap,
  MSG_SENDER,
  planSingleSwap,
  ROUTER_COMMAND,
  V4_ACTION,
} from './chain/universal-router.ts';
export type { RouterPlan, SingleSwap } from './chain/universal-router.ts';
export { claimFees } from './chain/fees.ts';
export type { ClaimedFees, ClaimFeesParameters } from './chain/fees.ts';
export { setPayoutRecipient } from './chain/payout.ts';
export { claimAllocation, readAllocation } from './chain/allocation.ts';
export type { ClaimedAllocation, HeldAllocation } from './chain/allocation.ts';
export { findMintedSongs, readSong } from './chain/songs.ts';
export type { FindMintedSongsParameters, SongRecord } from './chain/songs.ts';
export type { PayoutRecipientChanged, SetPayoutRecipientParameters } from './chain/payout.ts';
export { poolIdOf, poolLiquidity, readPool, readPoolKey } from './chain/pool.ts';
export type { PoolKey, SongPool } from './chain/pool.ts';
export { predictTokenAddress } from './chain/token-address.ts';
export type { PredictTokenAddressParameters } from './chain/token-address.ts';

export { apiErrorFromBody, asSongmintError, SongmintApiError, SongmintClientError, SongmintError } from './errors.ts';
export type { ApiErrorCode, ClientErrorCode, EarlierSong, UnlistedErrorCode } from './errors.ts';
export { API_ERROR_CODES } from './generated/error-codes.ts';

export {
  permit2Abi,
  poolManagerAbi,
  songNftAbi,
  songPoolHookAbi,
  songTokenAbi,
  songVaultAbi,
  universalRouterAbi,
  v4QuoterAbi,
} from './generated/abis.ts';
export { songmintAddresses } from './generated/addresses.ts';
export type { components as ApiComponents, paths as ApiPaths } from './generated/api.ts';
