/**
 * @songmint/react: React hooks for Songmint on wagmi and TanStack Query, built on @songmint/sdk.
 * Every hook's error is the SDK's typed SongmintError with its code.
 */
export { SongmintProvider, useConnectedAddress, useSession, useSongmintContext } from './provider.ts';
export type { SessionState, SongmintContextValue, SongmintProviderProps } from './provider.ts';
export type { SongmintSession } from './session-store.ts';
export { songmintKeys } from './query-keys.ts';
export { useSignIn, useSignOut } from './hooks/auth.ts';
export { applyJobStatus, isFinalJob, useCancelJob, useEditSong, useGenerate, useJob, useJobs } from './hooks/jobs.ts';
export type { JobQueryResult, UseJobOptions, UseJobsParameters } from './hooks/jobs.ts';
export { useCreatePreview, usePreview } from './hooks/previews.ts';
export { useDeleteUpload, useUploadAudio, useUploads } from './hooks/uploads.ts';
export type { UploadProgress, UploadVariables } from './hooks/uploads.ts';
export { useDownloadLink, useDownloadSong } from './hooks/downloads.ts';
export { useMintSignature, useMintSong, useUploadMetadata } from './hooks/mint.ts';
export type { MintSignatureVariables } from './hooks/mint.ts';
export {
  useAllocation,
  useBuy,
  useClaimAllocation,
  useClaimFees,
  useLaunchSong,
  useLaunchTerms,
  useQuote,
  useSell,
} from './hooks/market.ts';
export { useChangeProfile, useCoin, useCoinTrades, useCreator, usePortfolio, useProfile } from './hooks/reads.ts';
