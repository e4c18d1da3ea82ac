// Generated from the oracle's /openapi.json by `npm run sdk:generate`. Do not edit: test/sdk/generated.test.ts fails on drift.
export interface paths {
    "/api/auth/farcaster": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign In With Farcaster (FIP-11) for a session JWT
         * @description The message is checked as @farcaster/auth-client defines it (statement, chain 10, one fid resource, time window, our domain and a nonce from GET /api/auth/nonce, consumed once), and its signer must be the fid's custody address (IdRegistry) or one of its auth addresses (KeyRegistry) on OP Mainnet, read through FARCASTER_RPC_URL. The session is the account the fid is linked to; a fid not linked yet is linked to the wallet proved by `wallet` (same nonce) or, without it, to the signing address. Not mounted (404) without FARCASTER_RPC_URL.
         */
        post: operations["signInWithFarcaster"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issue a single-use Sign-In with Ethereum nonce */
        get: operations["getSignInNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/quick-auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a Farcaster Mini App's Quick Auth token for a session JWT
         * @description The token is verified with @farcaster/quick-auth against its issuer's key set (FARCASTER_QUICK_AUTH_ORIGIN, Farcaster's by default): signature, issuer, audience (our domain) and expiry; its subject is the fid. A fid linked to an account signs in without a prompt; the first time, `wallet` (a SIWE message with a nonce from GET /api/auth/nonce) names the account's wallet.
         */
        post: operations["signInWithQuickAuth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a signed EIP-4361 message for a session JWT
         * @description EOA signatures are checked locally; smart-wallet signatures (ERC-1271 deployed, ERC-6492 counterfactual) on the chain of CHAIN_RPC_URL. Without that RPC a smart-wallet signature is refused (401 AUTH_ERROR naming CHAIN_RPC_URL); while the chain cannot be read it is 503 with Retry-After and the nonce stays usable.
         */
        post: operations["signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's jobs, newest first, cursor-paginated; the library's filters and search (extension of the spec) */
        get: operations["listJobs"];
        put?: never;
        /** Start a generation job (Variant A), or generate synchronously with `Prefer: wait` (Variant B) */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generate/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Job status (owner only) */
        get: operations["getJob"];
        put?: never;
        post?: never;
        /**
         * Move one of your songs to the trash (extension of the spec)
         * @description The song leaves every view of the library but the trash (`GET /api/generate?filter=trash`); it cannot be downloaded, signed for minting or edited until restored. Its files stay until retention deletes them, 30 days after it was trashed (or 90 days after it was made, whichever is first); until then `POST /api/generate/{job_id}/restore` brings it back. A mint signature issued before still mints, and the song then leaves the trash. Deleting does not give back the generation. Deleting a trashed song answers 200 again.
         */
        delete: operations["deleteJob"];
        options?: never;
        head?: never;
        /**
         * Rename one of your songs that is not minted (extension of the spec)
         * @description The library's name of the song (the job list's `title`): it names the song's downloads and is the mint form's suggestion. A minted song's name is the one in its metadata for good.
         */
        patch: operations["renameJob"];
        trace?: never;
    };
    "/api/generate/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued or processing job (owner only; extension of the spec)
         * @description A queued job is cancelled at once; a processing one is marked cancelled at once and its worker stops before its next step (lyrics, model, encode, upload), publishing nothing. The daily generation is given back. Cancelling a cancelled job answers 200 again.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generate/{job_id}/download/{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A one-hour download URL of a song's MP3, WAV or FLAC, saved under the song's name (owner only; extension of the spec)
         * @description The MP3 is the published file (`audio_url`, the one `audio_hash` and the mint signature cover). The WAV and FLAC hold the exact PCM the MP3 was encoded from (24-bit integer, the model's sample rate) and carry the same signed C2PA manifest; they are private. This route answers a presigned GET URL valid one hour whose answer is an attachment named `file_name`.
         */
        get: operations["getLosslessDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generate/{job_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The job's progress as Server-Sent Events (owner only; extension of the spec)
         * @description A `text/event-stream`. It opens with `retry:`, then sends the current view as an event, and each later change of status or progress. Events are named `status` while the job is queued or processing, and `completed`, `failed` or `cancelled` for the final one, after which the server ends the stream. Each event's `data` is the body of GET /api/generate/{job_id}; its `id` is the view's version (opaque): reconnect with `Last-Event-ID` to be sent only what changed after it. Heartbeat comments keep an idle stream open; a stream ends after JOB_EVENTS_MAX_STREAM_SECONDS (reconnect with `Last-Event-ID`). Charged once per connection in the general hourly category.
         */
        get: operations["streamJobEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/generate/{job_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take one of your songs out of the trash (extension of the spec)
         * @description Restoring a song in the library answers 200 again.
         */
        post: operations["restoreJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload song metadata (and cover) to IPFS; returns ipfs://<cid> and the sha256 of the stored JSON
         * @description The cover is sniffed (PNG/JPEG/WebP/GIF, declared type must match, 5 MB), stored in object storage and added to IPFS; the ERC-721 JSON (name, description, image, animation_url, attributes, properties) is serialized with sorted keys and added under the unixfs-v1-2025 CID profile. Variant B (`audioUrl`) answers `{metadataURI, ipfsHash}`.
         */
        post: operations["publishMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/previews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a short preview of a prompt before a full generation (extension of the spec)
         * @description A 5-15 s clip (default 10 s) made by the generation workers and stored privately at preview/<session_id>.mp3, reachable only through presigned URLs valid 1 hour, deleted after 24 hours. Charges the hourly `preview` limit (free 30, pro 300, enterprise 3000), never the daily generation counter. A preview is never mintable and is not a job of GET /api/generate.
         */
        post: operations["createPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/previews/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Preview status; when completed, a fresh one-hour signed URL of the clip (owner only) */
        get: operations["getPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signature": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue the one-time platform signature that authorizes minting a completed job (Variants A and B)
         * @description Checks in order: (1) the job belongs to the caller (SIGN_001, 404), (2) it is completed (SIGN_003, 409), (3) no signature was issued before (SIGN_002, 409) — except one made by a platform key SongNFT has since retired, for audio never minted, which can never be used and is replaced by a signature from the current key, (4) the stored audio still hashes to the recorded value (SIGN_004, 409); then the model that made the audio must be licensed for commercial use unless the operator overrides it (SIGN_005, 403), and no other job may hold the same sound (PCM hash) first: one that made it earlier, of any account, and can still be signed, or one signed for it (SIGN_006, 409: one mint per sound, for the job that made it first); a song whose edit chain starts from an uploaded file must not contain a sound made for another account before it, signed or not, however re-encoded, filtered, overlaid, cut, sped up or transposed, by its landmark fingerprint (SIGN_007, 409, naming that song in `error.earlier_song`: its job and its token once minted; your own songs, their edits and extensions pass, and so does a later copy of your own song; a song made from the prompt alone is never refused for resembling another account’s), and at most `MINT_MAX_OUTSIDE_SHARE` (0.5 unless the operator sets it) of the song may be uploaded audio kept verbatim through its edits (SIGN_008, 403). Every completed song is registered to its account at completion (docs/fingerprints.md). `user_address` must be the authenticated wallet (FORBIDDEN, 403). Variant B (`metadataURI`, `audioHash`) finds the job by its audio hash and answers `{signature, expiresAt}`.
         */
        post: operations["issueSignature"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's uploads, newest first, cursor-paginated (extension of the spec)
         * @description Live uploads only (not deleted, not expired), each as POST /api/uploads answered it, and the rights statement an upload confirms, as recorded with each.
         */
        get: operations["listUploads"];
        put?: never;
        /**
         * Upload audio of your own to edit (extension of the spec)
         * @description The file itself is the body, as it is (no `Content-Encoding`): WAV (16, 24 or 32-bit integer PCM, 32-bit float), FLAC (16 or 24-bit) or MP3, 8 to 192 kHz, 1 to 8 channels, at most 104857600 bytes, at least 1 s and at most your tier's maximum song duration (free 30 s, pro 120 s, enterprise 240 s). The body must arrive at 100 KiB/s or faster after its first 5 s (408 BODY_TOO_SLOW, connection closed, not charged). It is decoded on arrival, in turn with other accounts' uploads, and decoding stops as soon as it passes your tier's maximum or 10 s of decoding (422 UPLOAD_007: the hourly charge stands); a free-format MP3 is refused at once (415 UPLOAD_001). At most 2 of your uploads are taken at once (the operator may change it); closing the connection before the answer cancels the upload's decode and keeps its hourly charge; what is taken is kept privately, exactly as uploaded, for 30 days, then deleted. Audio that contains a song made for another account, signed or not, however re-encoded, is refused (409 UPLOAD_005; docs/fingerprints.md), unless that song itself holds an earlier song of yours. Use its `upload_id` as `edit.source_upload_id` of POST /api/generate to extend, repaint or remix it; the edit's content credentials name the upload (its SHA-256 and format) as their parent ingredient. The header `Songmint-Rights-Confirmed: true` confirms, and the upload records, this statement: "v1: I own this audio or hold a licence to it that allows me to upload it and have it edited with AI, and it infringes no one else’s rights." Charged to the general hourly limit; a refusal is given back and stores nothing.
         */
        post: operations["uploadAudio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{upload_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an upload of yours (extension of the spec)
         * @description Deletes the stored file now (retention would after 30 days). Edits already made from it stay: they are songs of their own, and their content credentials keep naming the upload by its SHA-256 and format (the record of the upload is kept for that, unlisted). Refused while an edit of it is queued or running (409, naming the job): let it finish or cancel it first. After the delete, an edit naming the upload is refused as one of an expired upload is (EDIT_003).
         */
        delete: operations["deleteUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook signing secret (made on first use; extension of the spec) */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace your webhook signing secret; later attempts, retries included, are signed with the new one */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Basic health check */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process runs */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database and a live GPU/CPU worker (503 otherwise) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus text exposition */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/music/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Variant C: start a generation job (same fields as POST /api/generate) */
        post: operations["createJobV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nft/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Variant C: a minted token (indexed from SongMinted events) */
        get: operations["getNft"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nft/mint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Variant C: mint authorization for a completed job, with the contract call to make
         * @description Same checks and codes as POST /api/signature, errors in the Variant C shape.
         */
        post: operations["mintAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/coins/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: the coin page of a launched song (price per 1M tokens and its 24 h change, market cap, volume, holders, creator earnings)
         * @description Public: no token; charged per client address at the hourly trading limit. Indexed from the song token's Transfer logs and its pool's events, confirmed CHAIN_CONFIRMATIONS deep (a reorg deeper than that is undone). USD figures only where ETH_USD_FEED_ADDRESS names an ETH/USD feed.
         */
        get: operations["getCoin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/coins/{songId}/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: a coin's activity feed (each trade's side, wallet, amounts, launch fee, time and transaction), newest first
         * @description Public: no token; charged per client address at the hourly trading limit.
         */
        get: operations["getCoinTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/creators/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: a creator's profile (name, bio, avatar; minted songs, launched coins with market caps, total earnings)
         * @description Public: no token; charged per client address at the hourly trading limit. An address with nothing minted answers an empty profile. `profile` is what the account signed in with this address set (PATCH /v1/user/profile), with its linked Farcaster fid's name and picture where it set none and the operator configures a hub.
         */
        get: operations["getCreator"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/portfolios/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: a wallet's portfolio (song tokens held and their value in ETH, fees and allocations to claim)
         * @description Public: no token; charged per client address at the hourly trading limit. Everything here is public on the chain; the web app asks for the signed-in wallet's.
         */
        get: operations["getPortfolio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/songs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: launched songs as a visitor sees them (title, cover, audio, price, market cap, 24 h change), no token needed
         * @description Public beside the bearer routes /v1/trading/pools and /v1/nft/{id}, which keep their token: Discover without a wallet, newest launch first or by market cap or 24 h volume, optionally searched by title, genre or creator address. Charged per client address at the hourly trading limit.
         */
        get: operations["listPublicSongs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/songs/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extension: one minted song as a visitor sees it (title, cover, audio, lyrics), no token needed
         * @description What a shared song link shows. Charged per client address at the hourly trading limit.
         */
        get: operations["getPublicSong"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trading/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Variant C: song pools with price, liquidity, fees per party, 24 h volume (newest launch first)
         * @description Indexed from SongVault launches and the Uniswap v4 PoolManager events of Songmint pools, confirmed CHAIN_CONFIRMATIONS deep; claimable fees are read from SongVault at answer time.
         */
        get: operations["listPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trading/pools/{songId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Variant C: the pool of one song */
        get: operations["getPool"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trading/pools/{songId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Variant C: the swap history of one song pool (price after each swap, newest first), public
         * @description Public market data: no token needed; charged per client address in the trading category. Indexed from the Uniswap v4 PoolManager's Swap events, confirmed CHAIN_CONFIRMATIONS deep; a reorg deeper than that removes the rewound swaps from the next answer.
         */
        get: operations["getPoolHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Variant C: the user profile and statistics */
        get: operations["getProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Extension: set your display name, bio and avatar
         * @description Each field is optional: an absent one stays as it is, null (or an empty text) clears it. The avatar is checked exactly as a cover is (POST /api/metadata): a base64 data URI whose bytes are the PNG, JPEG, WebP or GIF it declares, at most 5 MB; it is stored in the object store (counted for your storage quota), added to IPFS and pinned when pinning is configured, and the avatar it replaces is deleted. A refused request changes nothing. Display names are not unique: pages show the address beside them. Where you set no name or no avatar, profiles show those of your linked Farcaster fid when the operator configures a hub.
         */
        patch: operations["changeProfile"];
        trace?: never;
    };
}
export interface webhooks {
    generation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A job with a `webhook` finished: generation.completed or generation.failed
         * @description Signed per Standard Webhooks: `webhook-id` (constant across retries), `webhook-timestamp` (unix seconds of the attempt), `webhook-signature: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`. Any 2xx acknowledges; anything else (redirects included) or no answer within 10 s is retried with exponential backoff.
         */
        post: operations["generationWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AuthNonce: {
            /** @enum {number} */
            chain_id: 8453;
            /** @description The SIWE message must name this domain. */
            domain: string;
            /** Format: date-time */
            expires_at: string;
            nonce: string;
            /** @description The SIWE message URI must start with this origin. */
            uri: string;
        };
        AuthVerifyRequest: {
            /** @description EIP-4361 message text. */
            message: string;
            /** @description The wallet's EIP-191 signature of `message`: 65 bytes from an EOA; any length from a smart wallet (ERC-1271, or ERC-6492 wrapped while undeployed). */
            signature: string;
            /** @description Farcaster fid to link; accepted only when the IdRegistry confirms it. */
            social_fid?: number | string;
        };
        Coin: {
            allocation: components["schemas"]["CoinAllocation"];
            chain_id: number;
            /** @description The creator SongLaunched named (EIP-55). */
            creator: string;
            /** @description The creator's earnings so far; LP fees count once collected (Uniswap v4 computes them only when the position is touched). */
            creator_earnings: {
                credited: {
                    /** @description Wei credited by collectFees. */
                    eth: string;
                    /** @description Token units credited (the LP fee of sales). */
                    token: string;
                };
                /** @description Who the creator share goes to now (the creator until the payout role is handed on). */
                recipient: string;
                /** @description Credited plus uncollected, wei: what the song has earned its creator side in ETH so far. */
                total_eth: string;
                /** @description The same in US dollars. Null unless an ETH/USD feed is configured. */
                total_usd: string | null;
                /** @description The creator share of the hook fees not collected yet (collectFees splits them), wei. */
                uncollected_swap_fees_eth: string;
            };
            /** @description The display name the minter set (PATCH /v1/user/profile); null: none. */
            creator_name: string | null;
            /** @description The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale). */
            eth_usd: {
                /** @description The Chainlink ETH/USD feed read (AggregatorV3Interface). */
                feed: string;
                /**
                 * @description US dollars per ETH, as the feed answered.
                 * @example 3012.45
                 */
                price: string;
                /**
                 * Format: date-time
                 * @description The feed round's time.
                 */
                updated_at: string;
            } | null;
            holders: {
                /** @description Addresses holding any of the token, leaving out Uniswap's PoolManager (the pool's own tokens) and SongVault (collected LP fees not yet claimed). */
                count: number;
                /** @description The 20 largest balances, from the token's Transfer logs (the PoolManager and the vault left out). */
                top: {
                    address: string;
                    /** @description Token base units. */
                    balance: string;
                    /** @description The display name this address set (PATCH /v1/user/profile), to link to its profile; null: none. */
                    name: string | null;
                    /**
                     * @description Of the supply, percent with four places.
                     * @example 5.0000
                     */
                    share_percent: string;
                }[];
            };
            image: string | null;
            indexed_through_block: string | null;
            /** Format: date-time */
            launched_at: string;
            market_cap: {
                /** @description Price times supply. Wei. */
                eth: string;
                /** @description US dollars, two places. Null unless an ETH/USD feed is configured. */
                usd: string | null;
            } | null;
            /** @example Songmint #1 */
            name: string;
            /** @example /app/song/1 */
            page_url: string;
            pool: components["schemas"]["CoinPool"];
            /** @description Null only in the instant before the launch's Initialize is indexed. */
            price: {
                /** @description Block of the swap (or launch) that set the price. */
                block_number: string;
                /**
                 * @description Change against the price 24 hours ago (the last swap before then; the launch price when nothing traded before then or the launch was since), percent with two places; null before the launch price is indexed.
                 * @example -3.25
                 */
                change_24h_percent: string | null;
                /**
                 * @description ETH per 1,000,000 tokens at the pool price, decimal.
                 * @example 0.010020
                 */
                eth_per_million_tokens: string;
                /** @description The price in US dollars per 1,000,000 tokens. Null unless an ETH/USD feed is configured. */
                usd_per_million_tokens: string | null;
                /** @description The same in wei, rounded down. */
                wei_per_million_tokens: string;
            } | null;
            /** @example 1 */
            song_id: string;
            /** @description Token supply in base units (18 decimals): the pool share plus the allocation, 1,000,000,000 tokens. */
            supply: string;
            /** @example SONG1 */
            symbol: string;
            /** @description The song's title from the metadata this oracle published. */
            title: string | null;
            /** @description The song's ERC-20 (EIP-55). */
            token: string;
            trades_total: number;
            /** @example /v1/public/coins/1/trades */
            trades_url: string;
            volume_24h: {
                /** @description Wei of ETH through the pool in the last 24 hours (|amount0|, before the hook fee). */
                eth: string;
                trades: number;
                /** @description US dollars. Null unless an ETH/USD feed is configured. */
                usd: string | null;
            };
        };
        /** @description The creator's launch allocation, read from the vault now: what a buyer must know, since claimed tokens can be sold into the pool. Null when the launch took none, or the chain could not be read. */
        CoinAllocation: {
            /** @description Block of the vault read. */
            block_number: string;
            /** @description What `claimAllocation` pays now: `vested - claimed`. */
            claimable: string;
            /** @description Tokens already minted to the recipient (and free to sell). */
            claimed: string;
            /**
             * Format: date-time
             * @description Until then nothing vests: the creator cannot sell any of it into the pool.
             */
            cliff_end: string;
            /** @description Who the allocation goes to (EIP-55): the launcher named it. */
            recipient: string;
            /** @description Tokens the allocation gives its recipient in all. */
            total: string;
            /** @description Tokens not vested yet: `total - vested`. */
            unvested: string;
            /** @description Tokens vested now, the claimed ones included (nothing before the cliff, then linearly). */
            vested: string;
            /**
             * Format: date-time
             * @description From then everything has vested.
             */
            vesting_end: string;
        } | null;
        /** @description The pool as a seller meets it now, read from the chain at answer time. */
        CoinPool: {
            /** @description Block of the chain read; null (with `eth`) when the chain could not be read. */
            block_number: string | null;
            /** @description Wei the pool's locked position holds now: all the ETH every holder together can take out by selling, before fees (a song pool starts with tokens only and pays out only what buyers paid in). */
            eth: string | null;
            /** @description US dollars of `eth`. Null unless an ETH/USD feed is configured. */
            usd: string | null;
        };
        CoinTrade: {
            block_number: string;
            /** @description Wei the wallet paid (buy, the launch fee included) or received (sell, after it). */
            eth: string;
            /** @description Null when no fee mint was indexed next to the swap. */
            launch_fee: {
                /** @description The hook's fee, wei (its ERC-6909 mint next to the swap). */
                eth: string;
                /**
                 * @description Of the ETH that changed hands, percent with two places.
                 * @example 49.18
                 */
                percent: string;
            } | null;
            log_index: number;
            /** @description Wei through the pool (|amount0|). */
            pool_eth: string;
            /** @description The pool price after the swap. */
            price_eth_per_million_tokens: string;
            /** @enum {string} */
            side: "buy" | "sell";
            /**
             * Format: date-time
             * @description Block time.
             */
            time: string;
            /** @description Tokens bought or sold, base units. */
            token: string;
            tx_hash: string;
            /** @description The wallet that received the tokens (buy) or sent them (sell): the other side of the token's transfer with the PoolManager; the swap's router when there is none. */
            wallet: string;
            /** @description The display name the wallet set (PATCH /v1/user/profile), to link to its profile; null: none. */
            wallet_name: string | null;
        };
        CoinTrades: {
            indexed_through_block: string | null;
            /** @description Pass as `cursor` for older trades; null on the last page. */
            next_cursor: string | null;
            song_id: string;
            /** @description Newest first. */
            trades: components["schemas"]["CoinTrade"][];
        };
        /** @description The signed C2PA manifest embedded in the MP3 (ID3 GEOB frame): made by AI (c2pa.created, trainedAlgorithmicMedia), model and licence, seed, prompt hash, job id. Null for audio published before credentials were embedded. */
        ContentCredentials: {
            /**
             * @description The active manifest's label.
             * @example urn:c2pa:3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70
             */
            manifest: string;
            /**
             * @description Subject of the certificate that signed it.
             * @example CN=Songmint, O=Songmint
             */
            signer: string;
            /** @enum {string} */
            standard: "c2pa";
        } | null;
        CreatorProfile: {
            /** @description EIP-55. */
            address: string;
            /** @description How many of the listed songs are launched. */
            coins: number;
            /** @description The creator side's earnings of the listed songs so far (each coin's `creator_earnings`). */
            earnings: {
                /** @description Wei. */
                eth: string;
                /** @description Token units (credited LP fees of sales, all songs). */
                token: string;
                /** @description US dollars of the ETH. Null unless an ETH/USD feed is configured. */
                usd: string | null;
            };
            /** @description The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale). */
            eth_usd: {
                /** @description The Chainlink ETH/USD feed read (AggregatorV3Interface). */
                feed: string;
                /**
                 * @description US dollars per ETH, as the feed answered.
                 * @example 3012.45
                 */
                price: string;
                /**
                 * Format: date-time
                 * @description The feed round's time.
                 */
                updated_at: string;
            } | null;
            /** @example /app/creator/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC */
            page_url: string;
            profile: components["schemas"]["PublicProfile"];
            /** @description Songs the address minted or launched as creator, newest first, at most 100. */
            songs: {
                /** @description Null until the song is launched (and its launch indexed). */
                coin: {
                    /** Format: date-time */
                    launched_at: string;
                    market_cap: {
                        /** @description Price times supply. Wei. */
                        eth: string;
                        /** @description US dollars, two places. Null unless an ETH/USD feed is configured. */
                        usd: string | null;
                    } | null;
                    price_eth_per_million_tokens: string | null;
                    symbol: string;
                    token: string;
                    volume_24h: {
                        /** @description Wei. */
                        eth: string;
                        trades: number;
                    };
                } | null;
                image: string | null;
                /** Format: date-time */
                minted_at: string | null;
                page_url: string;
                song_id: string;
                title: string | null;
            }[];
            songs_total: number;
        };
        DailyLimitError: {
            /** @enum {string} */
            code: "RATE_001";
            /** @enum {string} */
            error: "rate_limit_exceeded";
            limit: number;
            message: string;
            /** Format: date-time */
            reset_at: string;
            retry_after: number;
        };
        /** @description The song signed for another account that the refused audio contains (docs/fingerprints.md). */
        EarlierSong: {
            /** @description The registered song’s job (`gen_…`). */
            job_id: string;
            /** @description Its SongNFT token id (decimal) once its mint is seen on chain, else null. */
            token_id: string | null;
        };
        /** @description Extension: what this song was edited from, one of its owner's jobs or audio they uploaded (exactly one of the two ids), and the edit as it was asked for (docs/api.md "Edit a song"); null for a song that is no edit. */
        EditOf: {
            /** @description Repaint: where it ends (seconds); null for another task. */
            end: number | null;
            /** @description The source song's job (`gen_…`); null for an edit of an upload. */
            job_id: string | null;
            /** @description Repaint: where the remade range starts (seconds); null for another task. */
            start: number | null;
            /** @description Remix: how closely it follows the source, 0 to 1; null for another task. */
            strength: number | null;
            /** @enum {string} */
            task: "extend" | "repaint" | "remix";
            /** @description The uploaded source audio (`upl_…`); null for an edit of a song. */
            upload_id: string | null;
        };
        /** @description Extension: what this song was edited from, one of its owner's jobs or audio they uploaded (exactly one of the two ids), and the edit as it was asked for (docs/api.md "Edit a song"); null for a song that is no edit. */
        EditOfVariantB: {
            /** @description Repaint: where it ends (seconds); null for another task. */
            end: number | null;
            /** @description The source song's job (`gen_…`); null for an edit of an upload. */
            jobId: string | null;
            /** @description Repaint: where the remade range starts (seconds); null for another task. */
            start: number | null;
            /** @description Remix: how closely it follows the source, 0 to 1; null for another task. */
            strength: number | null;
            /** @enum {string} */
            task: "extend" | "repaint" | "remix";
            /** @description The uploaded source audio (`upl_…`); null for an edit of a song. */
            uploadId: string | null;
        };
        /** @description Extension: edit one of your completed songs, or audio you uploaded, instead of starting over. `prompt` describes the new material; `duration` is the result's length (extend: longer than the source; repaint and remix: the source's, an upload's whole seconds). Charged and limited as a generation. */
        EditRequest: {
            /** @description Repaint only: where it ends (seconds, at least 1 s after start, at most the song). */
            end?: number;
            /** @description The song to edit: one of your completed jobs (`gen_…`). */
            source_job_id?: string;
            /** @description Or the audio to edit: one of your uploads (`upl_…`, POST /api/uploads). Exactly one of the two. */
            source_upload_id?: string;
            /** @description Repaint only: where the new material starts (seconds). */
            start?: number;
            /** @description Remix only: how closely the remix follows the source, 0 to 1 (default 0.5). */
            strength?: number;
            /**
             * @description `extend`: the result is `duration` seconds, the source then new material; `repaint`: seconds `start` to `end` made anew, the rest kept; `remix`: a variation keeping tempo, key and chord progression.
             * @enum {string}
             */
            task: "extend" | "repaint" | "remix";
        };
        /** @description Variant B spelling of EditRequest. */
        EditRequestVariantB: {
            /** @description Repaint only: where it ends (seconds, at least 1 s after start, at most the song). */
            end?: number;
            /** @description The song to edit (`gen_…`). */
            sourceJobId?: string;
            /** @description Or the upload to edit (`upl_…`); exactly one of the two. */
            sourceUploadId?: string;
            /** @description Repaint only: where the new material starts (seconds). */
            start?: number;
            /** @description Remix only: how closely the remix follows the source, 0 to 1 (default 0.5). */
            strength?: number;
            /**
             * @description `extend`: the result is `duration` seconds, the source then new material; `repaint`: seconds `start` to `end` made anew, the rest kept; `remix`: a variation keeping tempo, key and chord progression.
             * @enum {string}
             */
            task: "extend" | "repaint" | "remix";
        };
        /**
         * @description The error codes of docs/api.md. A client should treat a code it does not know as the HTTP status alone.
         * @example GEN_003
         * @enum {string}
         */
        ErrorCode: "GEN_001" | "GEN_002" | "GEN_003" | "GEN_004" | "GEN_005" | "SIGN_001" | "SIGN_002" | "SIGN_003" | "SIGN_004" | "SIGN_005" | "SIGN_006" | "SIGN_007" | "SIGN_008" | "RATE_001" | "RATE_002" | "IDEM_001" | "IDEM_002" | "PREVIEW_EXPIRED" | "EDIT_001" | "EDIT_002" | "EDIT_003" | "EDIT_004" | "EDIT_005" | "UPLOAD_001" | "UPLOAD_002" | "UPLOAD_003" | "UPLOAD_004" | "UPLOAD_005" | "UPLOAD_006" | "UPLOAD_007" | "LIBRARY_001" | "LIBRARY_002" | "LIBRARY_003" | "LIBRARY_004" | "STORAGE_001" | "VALIDATION_ERROR" | "PAYLOAD_TOO_LARGE" | "BODY_TOO_SLOW" | "AUTH_ERROR" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "SERVICE_UNAVAILABLE" | "INTERNAL_ERROR";
        ErrorVariantA: {
            error: {
                code: components["schemas"]["ErrorCode"];
                details: string;
                earlier_song?: components["schemas"]["EarlierSong"];
                job_id?: string;
                message: string;
                retry_after?: number;
            };
        };
        ErrorVariantC: {
            details: {
                [key: string]: unknown;
            };
            error: components["schemas"]["ErrorCode"];
            message: string;
        };
        FarcasterSignInRequest: {
            /** @description Sign In With Farcaster (FIP-11) message: EIP-4361 for this domain, chain 10, statement "Farcaster Auth", one `farcaster://fid/<fid>` resource and a nonce from GET /api/auth/nonce. */
            message: string;
            /** @description The fid's custody address's or auth address's signature of `message`. */
            signature: string;
            /** @description The wallet to act for, with the same nonce; absent: the address that signed the Farcaster message. */
            wallet?: {
                /** @description EIP-4361 message of the wallet, for this domain and chain 8453. */
                message: string;
                /** @description The wallet's EIP-191 signature of `message` (EOA or smart wallet). */
                signature: string;
            };
        };
        GenerateAccepted: {
            /** @description Seconds until the job is expected to complete. */
            estimated_time: number;
            /** @example gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11 */
            job_id: string;
            /** @description Place in the queue; 1 starts next. */
            position: number;
            /** @enum {string} */
            status: "queued";
        };
        GenerateRequest: {
            /**
             * @description Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).
             * @example 30
             */
            duration: number;
            edit?: components["schemas"]["EditRequest"];
            /** @description Lyrics with [verse]/[chorus]/[bridge] tags; given lyrics win over with_lyrics. */
            lyrics?: string;
            /**
             * @description Text prompt, 1 to 500 characters.
             * @example upbeat synthwave with a driving bassline
             */
            prompt: string;
            /** @description Reproducibility seed. */
            seed?: number;
            /**
             * @description Diffusion steps: 27 (default) or 60.
             * @default 27
             */
            steps: 27 | 60;
            /**
             * @description Extension: URL that receives a signed `generation.completed` or `generation.failed` POST when the job finishes. https (http only for hosts in the operator's development allow-list); never a private or loopback address.
             * @example https://example.com/hooks/songmint
             */
            webhook?: string;
            /**
             * @description Generate lyrics from the prompt first (ignored when lyrics are given).
             * @default false
             */
            with_lyrics: boolean;
        };
        GenerateRequestVariantB: {
            /**
             * @description Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).
             * @example 30
             */
            duration: number;
            edit?: components["schemas"]["EditRequestVariantB"];
            /**
             * @description Text prompt, 1 to 500 characters.
             * @example upbeat synthwave with a driving bassline
             */
            prompt: string;
        };
        GenerateResultVariantB: {
            audioHash: string;
            /** Format: uri */
            audioUrl: string;
            contentCredentials: components["schemas"]["ContentCredentials"];
            duration: number;
            editOf: components["schemas"]["EditOfVariantB"] | null;
            lossless: components["schemas"]["LosslessFilesVariantB"];
            /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
            lyrics: string | null;
            model: components["schemas"]["ModelRecord"];
        };
        Health: {
            service: string;
            /** @enum {string} */
            status: "ok";
        };
        JobCancelled: {
            job_id: string;
            /** @enum {string} */
            status: "cancelled";
        };
        JobList: {
            /** @description Newest first. */
            jobs: components["schemas"]["JobSummary"][];
            /** @description Cursor of the next page; null on the last page. */
            next_cursor: string | null;
            /** @description Extension: songs matching `filter` and `q` in all pages. */
            total: number;
        };
        JobStatus: {
            /** @description Seconds. */
            estimated_remaining: number;
            job_id: string;
            position: number;
            progress: number;
            /** @enum {string} */
            status: "queued";
        } | {
            /** @description Seconds. */
            estimated_remaining: number;
            job_id: string;
            progress: number;
            /** @enum {string} */
            status: "processing";
        } | {
            /** @example 0xabababababababababababababababababababababababababababababababab */
            audio_hash: string;
            /** Format: uri */
            audio_url: string;
            content_credentials: components["schemas"]["ContentCredentials"];
            /** Format: date-time */
            created_at: string;
            duration: number;
            edit_of: components["schemas"]["EditOf"] | null;
            job_id: string;
            lossless: components["schemas"]["LosslessFiles"];
            /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
            lyrics: string | null;
            model: components["schemas"]["ModelRecord"];
            /**
             * @description The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null until then.
             * @example 1
             */
            nft_token_id: string | null;
            /** @description True once the chain watcher has seen the song minted with its platform signature (confirmed blocks deep); false before, also while a signature is issued but unused. */
            signature_used: boolean;
            /** @enum {string} */
            status: "completed";
        } | {
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
                retry_after?: number;
            };
            job_id: string;
            /** @enum {string} */
            status: "failed";
        } | {
            job_id: string;
            /** @enum {string} */
            status: "cancelled";
        };
        JobSummary: {
            audio_hash: string | null;
            /** Format: uri */
            audio_url: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Extension: when its owner moved it to the trash; null while it is in the library.
             */
            deleted_at: string | null;
            /** @description Requested seconds. */
            duration: number;
            edit_of: components["schemas"]["EditOf"] | null;
            error_code: components["schemas"]["ErrorCode"] | null;
            job_id: string;
            /** @description Extension: the minted SongNFT token id once the chain watcher has seen the mint; null before. */
            nft_token_id: string | null;
            progress: number;
            prompt: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed" | "cancelled";
            /** @description Extension: the name it goes by besides its prompt: the minted name, or the title its owner gave it (or an edit got from its source, e.g. "Night drive (extended +4 s)"); null: it goes by its prompt. */
            title: string | null;
        };
        ListedUpload: {
            /**
             * Format: uri
             * @description Presigned GET URL of the file as uploaded, valid 1 hour, for its owner to play (issue 51); every list issues fresh ones. Null when the store could not sign one.
             */
            audio_url: string | null;
            bytes: number;
            channels: number;
            /** Format: date-time */
            created_at: string;
            /** @description Seconds, as decoded (to the millisecond). An edit works on its whole seconds. */
            duration: number;
            /**
             * Format: date-time
             * @description When retention deletes the file (30 days after the upload).
             */
            expires_at: string;
            /** @enum {string} */
            format: "wav" | "flac" | "mp3";
            /**
             * @description The name sent with it (Songmint-Upload-Name); its edits are titled after it. Null when none was sent.
             * @example chord.wav
             */
            name: string | null;
            /**
             * Format: date-time
             * @description When the uploader confirmed the rights statement (recorded with it).
             */
            rights_confirmed_at: string;
            sample_rate: number;
            /** @description SHA-256 of the file as uploaded; edits made from it name it. */
            sha256: string;
            /** @example upl_5b0e7a52-3c1d-4f0e-9a51-0d2a7c9e4b13 */
            upload_id: string;
        };
        Liveness: {
            /** @enum {string} */
            status: "alive";
            /** @description Seconds since the process started. */
            uptime_seconds: number;
        };
        /** @description WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample rate), each carrying the same signed C2PA manifest; private, downloaded through `download`. Made in the seconds after the song completed (`status` pending, then ready). Null for songs made before they were kept, once retention deleted the audio, and when the worker could not make them. The MP3 stays the file `audio_hash` and the mint signature cover. */
        LosslessFiles: {
            /**
             * @description Bits per sample of the integer PCM.
             * @example 24
             */
            bits_per_sample: number;
            /** @example 2 */
            channels: number;
            files: {
                /** @description Size of the file. */
                bytes: number;
                /** @example audio/flac */
                content_type: string;
                /**
                 * @description The API path (GET, bearer token, owner only) that answers a one-hour download URL of the file.
                 * @example /api/generate/gen_3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70/download/flac
                 */
                download: string;
                /** @enum {string} */
                format: "wav" | "flac";
            }[];
            /**
             * @description Samples per second: the model's own rate (48000 for ACE-Step).
             * @example 48000
             */
            sample_rate: number;
            /**
             * @description `pending` from completion until the worker stored the files, a few seconds later (no files listed yet: ask the status again); then `ready`.
             * @enum {string}
             */
            status: "pending" | "ready";
        } | null;
        /** @description WAV and FLAC of the exact PCM the MP3 was encoded from (24-bit integer, the model's sample rate), each carrying the same signed C2PA manifest; private, downloaded through `download`. Made in the seconds after the song completed (`status` pending, then ready). Null for songs made before they were kept, once retention deleted the audio, and when the worker could not make them. The MP3 stays the file `audio_hash` and the mint signature cover. */
        LosslessFilesVariantB: {
            /**
             * @description Bits per sample of the integer PCM.
             * @example 24
             */
            bitsPerSample: number;
            /** @example 2 */
            channels: number;
            files: {
                /** @description Size of the file. */
                bytes: number;
                /** @example audio/flac */
                contentType: string;
                /**
                 * @description The API path (GET, bearer token, owner only) that answers a one-hour download URL of the file.
                 * @example /api/generate/gen_3f1c2b9e-7a4d-4e55-9b0a-2d6f8c1e5a70/download/flac
                 */
                download: string;
                /** @enum {string} */
                format: "wav" | "flac";
            }[];
            /**
             * @description Samples per second: the model's own rate (48000 for ACE-Step).
             * @example 48000
             */
            sampleRate: number;
            /**
             * @description `pending` from completion until the worker stored the files, a few seconds later (no files listed yet: ask the status again); then `ready`.
             * @enum {string}
             */
            status: "pending" | "ready";
        } | null;
        MetadataRequest: {
            attributes?: components["schemas"]["SongAttributes"];
            /**
             * Format: uri
             * @description Public URL of the audio. When it is `{storage_url}/audio/<job_id>.mp3` of a completed job of the caller, the job is linked: its audio hash goes into the metadata and the cover is stored at covers/<job_id>.png.
             */
            audio_url: string;
            /** @description Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5 MB decoded. */
            cover_image?: string;
            /**
             * @description Up to 5000 characters.
             * @default
             */
            description: string;
            /** Format: uri */
            external_url?: string;
            /**
             * @description Song title, 1 to 200 characters.
             * @example Neon Driveway
             */
            name: string;
        };
        MetadataRequestVariantB: {
            attributes?: components["schemas"]["SongAttributes"];
            /**
             * Format: uri
             * @description Public URL of the audio. When it is `{storage_url}/audio/<job_id>.mp3` of a completed job of the caller, the job is linked: its audio hash goes into the metadata and the cover is stored at covers/<job_id>.png.
             */
            audioUrl: string;
            /** @description Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5 MB decoded. */
            coverImage?: string;
            /**
             * @description Up to 5000 characters.
             * @default
             */
            description: string;
            /** Format: uri */
            externalUrl?: string;
            /**
             * @description Song title, 1 to 200 characters.
             * @example Neon Driveway
             */
            name: string;
        };
        MetadataResponse: {
            cid: string;
            cover_url?: string;
            /** @description ipfs:// URI of the cover. */
            image?: string;
            job_id?: string;
            /** @description 0x + sha256 of the exact JSON bytes behind the CID. */
            metadata_hash: string;
            /** @example ipfs://bafkrei... */
            metadata_uri: string;
            /** @enum {string} */
            pin_status?: "queued" | "pinning" | "pinned";
        };
        MetadataResponseVariantB: {
            /** @description The CID. */
            ipfsHash: string;
            metadataURI: string;
        };
        /** @description The model that made the audio; null only for a job no model completed. */
        ModelRecord: {
            /** @example songmint-builtin-procedural */
            name: string;
            /** @example 1.0.0 */
            version: string;
        } | null;
        Nft: {
            audio_hash: string;
            audio_url: string | null;
            chain_id: number;
            contract: string | null;
            job_id: string;
            /** @description The metadata JSON when this oracle published it. */
            metadata: {
                [key: string]: unknown;
            } | null;
            metadata_uri: string;
            mint_tx_hash: string | null;
            /** Format: date-time */
            minted_at: string | null;
            /** @description Address that minted the token (transfers are not tracked). */
            minter: string;
            /** @description Uniswap v4 PoolId of the song's pool; null until its launch is indexed. */
            pool_id: string | null;
            /**
             * @description The pool route (`/v1/trading/pools/{id}`); null until the launch is indexed.
             * @example /v1/trading/pools/1
             */
            pool_url: string | null;
            token_id: string;
        };
        NftMintRequest: {
            /** @example gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11 */
            job_id: string;
            /**
             * @description Metadata URI the token will carry.
             * @example ipfs://bafkreibwnxqpvexampleexampleexampleexampleexampleexample
             */
            metadata_uri: string;
            user_address?: string;
        };
        NftMintResponse: {
            audio_hash: string;
            /** Format: date-time */
            expires_at: string;
            job_id: string;
            metadata_uri: string;
            mint_call: {
                /** @description SongNFT address; null when the oracle has no chain configured. */
                address: string | null;
                /** @description [metadataURI, audioHash, signature] */
                args: [
                    string,
                    string,
                    string
                ];
                chain_id: number;
                /** @enum {string} */
                function_name: "mint";
            };
            minter: string;
            signature: string;
        };
        PoolHistory: {
            /** @description Last block the indexer has read (confirmed); null before its first batch or without a chain. */
            indexed_through_block: string | null;
            /** @description The pool's starting price (PoolManager.Initialize); null only in the instant before that log is indexed. */
            launch: {
                block_number: string;
                /** @description ETH per song token, decimal, rounded down to 18 places. */
                eth_per_token: string;
                /** @description sqrtPriceX96 after the event. */
                sqrt_price_x96: string;
                tick: number;
                /**
                 * Format: date-time
                 * @description Block time.
                 */
                time: string;
                /** @description Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places. */
                tokens_per_eth: string;
            } | null;
            /** @description Pass as `cursor` for older swaps; null on the last page. */
            next_cursor: string | null;
            pool_id: string;
            song_id: string;
            /** @description Newest first. */
            swaps: components["schemas"]["PoolSwap"][];
        };
        PoolSwap: {
            block_number: string;
            /** @description Wei of ETH through the pool (|amount0|, before the hook fee). */
            eth: string;
            /** @description ETH per song token, decimal, rounded down to 18 places. */
            eth_per_token: string;
            /** @description The swap's LP fee in pips (hundredths of a basis point). */
            fee_pips: number;
            /** @description Active liquidity after the swap. */
            liquidity: string;
            log_index: number;
            /**
             * @description `buy`: ETH in, song tokens out; `sell`: the other way.
             * @enum {string}
             */
            side: "buy" | "sell";
            /** @description sqrtPriceX96 after the event. */
            sqrt_price_x96: string;
            tick: number;
            /**
             * Format: date-time
             * @description Block time.
             */
            time: string;
            /** @description Song token units through the pool (|amount1|). */
            token: string;
            /** @description Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places. */
            tokens_per_eth: string;
            tx_hash: string;
        };
        Portfolio: {
            address: string;
            /** @description Launch allocations named for this address and not all claimed yet, with their vesting (read from the vault). */
            allocations: {
                /** @description Tokens the vault has not released to this address yet (vested or not): `total - claimed`. */
                amount: string;
                /** @description What `claimAllocation` pays now: `vested - claimed`. */
                claimable: string;
                /**
                 * Format: date-time
                 * @description The first second a claim can pay anything: right after the cliff.
                 */
                claimable_at: string;
                /** @description Tokens already minted to the recipient (and free to sell). */
                claimed: string;
                /**
                 * Format: date-time
                 * @description Until then nothing vests: the creator cannot sell any of it into the pool.
                 */
                cliff_end: string;
                image: string | null;
                page_url: string;
                song_id: string;
                title: string | null;
                /** @description Tokens the allocation gives its recipient in all. */
                total: string;
                /** @description Tokens not vested yet: `total - vested`. */
                unvested: string;
                /** @description Tokens vested now, the claimed ones included (nothing before the cliff, then linearly). */
                vested: string;
                /**
                 * Format: date-time
                 * @description From then everything has vested.
                 */
                vesting_end: string;
            }[];
            /** @description Block of the vault reads; null when the chain could not be read (fees and allocations are then empty). */
            block_number: string | null;
            /** @description The ETH/USD price behind every USD figure; null when no feed is configured (or it is stale). */
            eth_usd: {
                /** @description The Chainlink ETH/USD feed read (AggregatorV3Interface). */
                feed: string;
                /**
                 * @description US dollars per ETH, as the feed answered.
                 * @example 3012.45
                 */
                price: string;
                /**
                 * Format: date-time
                 * @description The feed round's time.
                 */
                updated_at: string;
            } | null;
            /** @description Songs whose creator share this address receives now, with what `SongVault.claim` would pay (read from the vault). */
            fees: {
                claimable: {
                    /** @description Wei. */
                    eth: string;
                    /** @description Token units. */
                    token: string;
                };
                image: string | null;
                page_url: string;
                song_id: string;
                title: string | null;
                /** @description The creator share of hook fees not collected yet; a claim collects them first. */
                uncollected_swap_fees_eth: string;
            }[];
            /** @description Song tokens held, largest value first (indexed Transfer logs). */
            holdings: {
                /** @description Token base units. */
                balance: string;
                image: string | null;
                page_url: string;
                /** @description Wei the coin's pool holds now: the most every holder together can sell for, before fees. */
                pool_eth: string | null;
                price_eth_per_million_tokens: string | null;
                sale: components["schemas"]["SaleQuote"];
                share_percent: string;
                song_id: string;
                symbol: string;
                title: string | null;
                token: string;
                value: {
                    /** @description At the pool price now (spot: a sale of it all fetches less, see `sale`). Wei. */
                    eth: string;
                    /** @description US dollars, two places. Null unless an ETH/USD feed is configured. */
                    usd: string | null;
                };
            }[];
            indexed_through_block: string | null;
            /** @description What the holdings can really be sold for now. */
            total_sale: {
                /** @description False when some holding’s pool cannot buy all of it back (it is left out of `eth`). */
                complete: boolean;
                /** @description Wei selling every holding now pays, each against its pool, fees included: the sum of the `sale` quotes that fill. */
                eth: string;
                /** @description US dollars. Null unless an ETH/USD feed is configured. */
                usd: string | null;
            };
            total_value: {
                /** @description All holdings at their pool prices (spot). Wei. */
                eth: string;
                /** @description US dollars, two places. Null unless an ETH/USD feed is configured. */
                usd: string | null;
            };
        };
        PreviewAccepted: {
            /** @description Seconds until the preview is expected to complete. */
            estimated_time: number;
            /** @description Place in the generation queue; 1 starts next. */
            position: number;
            /**
             * @description Server-generated preview session id.
             * @example prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a
             */
            session_id: string;
            /** @enum {string} */
            status: "queued";
        };
        PreviewRequest: {
            /**
             * @description Seconds of the clip, 5 to 15 (default 10).
             * @default 10
             * @example 10
             */
            duration: number;
            /** @description Lyrics with [verse]/[chorus]/[bridge] tags; given lyrics win over with_lyrics. */
            lyrics?: string;
            /**
             * @description Text prompt, 1 to 500 characters.
             * @example upbeat synthwave with a driving bassline
             */
            prompt: string;
            /** @description Reproducibility seed. */
            seed?: number;
            /**
             * @description Diffusion steps: 27 (default) or 60.
             * @default 27
             */
            steps: 27 | 60;
            /**
             * @description Generate lyrics from the prompt first (ignored when lyrics are given).
             * @default false
             */
            with_lyrics: boolean;
        };
        PreviewStatus: {
            /** @description Seconds. */
            estimated_remaining: number;
            /**
             * Format: date-time
             * @description When the preview is deleted: its request + 24 hours (UTC). From then on the status answers 410 PREVIEW_EXPIRED.
             */
            expires_at: string;
            position: number;
            progress: number;
            /**
             * @description Server-generated preview session id.
             * @example prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a
             */
            session_id: string;
            /** @enum {string} */
            status: "queued";
        } | {
            /** @description Seconds. */
            estimated_remaining: number;
            /**
             * Format: date-time
             * @description When the preview is deleted: its request + 24 hours (UTC). From then on the status answers 410 PREVIEW_EXPIRED.
             */
            expires_at: string;
            progress: number;
            /**
             * @description Server-generated preview session id.
             * @example prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a
             */
            session_id: string;
            /** @enum {string} */
            status: "processing";
        } | {
            /** @description `0x` + SHA-256 of the clip bytes. */
            audio_hash: string;
            /** Format: date-time */
            created_at: string;
            /** @description Seconds of the clip. */
            duration: number;
            /**
             * Format: date-time
             * @description When the preview is deleted: its request + 24 hours (UTC). From then on the status answers 410 PREVIEW_EXPIRED.
             */
            expires_at: string;
            /**
             * Format: uri
             * @description Presigned GET URL of the private clip, valid 1 hour; every status request issues a fresh one.
             */
            preview_url: string;
            /**
             * @description Server-generated preview session id.
             * @example prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a
             */
            session_id: string;
            /** @enum {string} */
            status: "completed";
            /**
             * Format: date-time
             * @description When `preview_url` stops working (UTC).
             */
            url_expires_at: string;
        } | {
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
                retry_after?: number;
            };
            /**
             * Format: date-time
             * @description When the preview is deleted: its request + 24 hours (UTC). From then on the status answers 410 PREVIEW_EXPIRED.
             */
            expires_at: string;
            /**
             * @description Server-generated preview session id.
             * @example prv_Jm3v0yq0cVd3mS2k1nQ1Xw8a
             */
            session_id: string;
            /** @enum {string} */
            status: "failed";
        };
        ProfileChange: {
            /** @description Base64 data URI of a PNG, JPEG, WebP or GIF image, at most 5242880 bytes decoded, checked as covers are (its bytes must be the type it declares). Null removes it. */
            avatar?: string | null;
            /**
             * @description At most 280 characters after trimming; line breaks kept (at most one empty line in a row). Null or empty clears it.
             * @example Synthwave at night.
             */
            bio?: string | null;
            /**
             * @description 1 to 50 characters after trimming (runs of spaces become one; Unicode NFC): letters, numbers, punctuation, symbols and spaces; no control, bidi-override or invisible characters. Null or empty clears it. Not unique.
             * @example Alice
             */
            display_name?: string | null;
        };
        PublicLaunchedSong: {
            /** @description The song (`animation_url`, usually `ipfs://…`), else the generated audio URL. */
            audio: string | null;
            /**
             * @description The price's change against 24 hours ago (the last swap before then, else the launch price), percent with two places, as the coin page's.
             * @example -3.25
             */
            change_24h_percent: string | null;
            /** @description The address that minted it (EIP-55 checksummed). */
            creator: string;
            /** @description The display name the creator set (PATCH /v1/user/profile); null: none (show the address). Their Farcaster name, when they set none, is on GET /v1/public/creators/{address}. */
            creator_name: string | null;
            description: string | null;
            /** @description The `genre` attribute, when the creator gave one. */
            genre: string | null;
            /** @description The cover (`image`, usually `ipfs://…`: fetch through this API at `/ipfs/<cid>`). */
            image: string | null;
            /** Format: date-time */
            launched_at: string;
            /**
             * @description Price times supply, wei; null before the launch price is indexed.
             * @example 10016000000000000000
             */
            market_cap: string | null;
            /** Format: date-time */
            minted_at: string | null;
            /**
             * @description The web app's page of the song.
             * @example /app/song/1
             */
            page_url: string;
            /**
             * @description ETH per 1,000,000 tokens at the same price, decimal (the app's price unit).
             * @example 0.010020
             */
            price_eth_per_million_tokens: string | null;
            /**
             * @description SongNFT token id.
             * @example 1
             */
            song_id: string;
            /** @description The metadata's `name`; null when this oracle did not publish the metadata. */
            title: string | null;
            /** @description Song tokens per ETH at the latest indexed swap (or the launch). */
            tokens_per_eth: string | null;
            volume_24h: {
                /** @description Wei swapped in the last 24 hours. */
                eth: string;
                trades: number;
            };
        };
        PublicProfile: {
            /** @description The creator's own avatar. */
            avatar: {
                /** @example image/png */
                content_type: string;
                /** @description `ipfs://<cid>` of the same bytes. */
                ipfs: string;
                /** @description Public URL in the object store (the `covers/` prefix). */
                url: string;
            } | null;
            /** @description The picture to show: the creator's avatar, else the Farcaster picture; null: none. */
            avatar_url: string | null;
            /** @description The creator's own bio (at most 280 characters, line breaks kept). */
            bio: string | null;
            /** @description The creator's own display name (1 to 50 characters); not unique. */
            display_name: string | null;
            /** @description The linked fid's user data from the operator's Farcaster hub (FARCASTER_HUB_URL), read only where the creator set no name or no avatar of their own; null without a linked fid, without a hub, or when the hub did not answer in time. */
            farcaster: {
                /** @description USER_DATA_TYPE_DISPLAY, when our name rules take it. */
                display_name: string | null;
                /**
                 * @description The linked Farcaster fid (`social_fid`).
                 * @example 6833
                 */
                fid: string;
                /** @description USER_DATA_TYPE_PFP, when it is an https URL. */
                pfp_url: string | null;
                /**
                 * @description USER_DATA_TYPE_USERNAME: the fname or ENS name.
                 * @example alice
                 */
                username: string | null;
            } | null;
            /**
             * @description What to call the creator: `display_name`, else the Farcaster display name, else the Farcaster username; null: show the address.
             * @example Alice
             */
            name: string | null;
        };
        PublicSong: {
            /** @description The song (`animation_url`, usually `ipfs://…`), else the generated audio URL. */
            audio: string | null;
            /** @description The address that minted it (EIP-55 checksummed). */
            creator: string;
            /** @description The display name the creator set (PATCH /v1/user/profile); null: none (show the address). Their Farcaster name, when they set none, is on GET /v1/public/creators/{address}. */
            creator_name: string | null;
            description: string | null;
            /** @description The `genre` attribute, when the creator gave one. */
            genre: string | null;
            /** @description The cover (`image`, usually `ipfs://…`: fetch through this API at `/ipfs/<cid>`). */
            image: string | null;
            /**
             * Format: date-time
             * @description Null until its launch is indexed.
             */
            launched_at: string | null;
            /** @description The lyrics the song was sung with (the generation record); null for instrumentals. */
            lyrics: string | null;
            /** Format: date-time */
            minted_at: string | null;
            /**
             * @description The web app's page of the song.
             * @example /app/song/1
             */
            page_url: string;
            /**
             * @description SongNFT token id.
             * @example 1
             */
            song_id: string;
            /** @description The metadata's `name`; null when this oracle did not publish the metadata. */
            title: string | null;
        };
        PublicSongs: {
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
            /** @description In the order `sort` asked for (newest launch first by default). */
            songs: components["schemas"]["PublicLaunchedSong"][];
        };
        QuickAuthSignInRequest: {
            /** @description A Farcaster Mini App's Quick Auth JWT issued for this domain. */
            token: string;
            /** @description Needed the first time a fid signs in: the wallet its account acts for (a nonce from GET /api/auth/nonce). */
            wallet?: {
                /** @description EIP-4361 message of the wallet, for this domain and chain 8453. */
                message: string;
                /** @description The wallet's EIP-191 signature of `message` (EOA or smart wallet). */
                signature: string;
            };
        };
        Readiness: {
            checks: {
                /** @enum {string} */
                database: "up" | "down";
                /** @description Which backend signs mints: `pkcs11` (an HSM) or `awskms`, or `libsecp256k1`/`noble` for a development key in the environment. */
                signer?: {
                    /** @enum {string} */
                    backend: "pkcs11" | "awskms" | "libsecp256k1" | "noble";
                    /** @description The key reference without PIN (`pkcs11:token=…;object=…`, `awskms://…`), or `env`. */
                    key: string;
                };
                workers: {
                    devices?: string[];
                    /** @description Workers with a fresh heartbeat. */
                    live?: number;
                    /** @description The models the live workers run, as `name@version`. */
                    models?: string[];
                    slots?: number;
                    /** @enum {string} */
                    status: "up" | "down" | "unknown";
                };
            };
            /** @enum {string} */
            status: "ready" | "not_ready";
            /** @description Only when not ready: what the service waits for. `database`: PostgreSQL does not answer; `workers`: no inference worker has a heartbeat newer than 20 s. */
            waiting_for?: ("database" | "workers")[];
        };
        RenameJobRequest: {
            /**
             * @description The new name, 1 to 200 characters: letters, numbers, punctuation, symbols and spaces (no control, bidi or invisible characters; other spaces become U+0020, runs of them one, and those at the ends are dropped).
             * @example Night drive
             */
            title: string;
        };
        SaleQuote: {
            /** @description Wei selling all of it pays now, the LP fee and the launch fee included (Uniswap’s V4Quoter on the pool, in `block_number`). */
            eth: string | null;
            /** @description False: the pool cannot buy all of it back now (it pays out only the ETH buyers paid in); `eth` is then null. Also false when the chain could not be read. */
            fills: boolean;
            /** @description US dollars of `eth`. Null unless an ETH/USD feed is configured. */
            usd: string | null;
        };
        SessionToken: {
            /** Format: date-time */
            expires_at: string;
            token: string;
            user: {
                id: string;
                social_fid: string | null;
                /** @enum {string} */
                tier: "free" | "pro" | "enterprise";
                wallet_address: string;
            };
        };
        SignatureRequest: {
            /** @example gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11 */
            job_id: string;
            /**
             * @description Metadata URI the token will carry.
             * @example ipfs://bafkreibwnxqpvexampleexampleexampleexampleexampleexample
             */
            metadata_uri: string;
            /** @description Must be the authenticated wallet. */
            user_address: string;
        };
        SignatureRequestVariantB: {
            audioHash: string;
            /**
             * @description Metadata URI the token will carry.
             * @example ipfs://bafkreibwnxqpvexampleexampleexampleexampleexampleexample
             */
            metadataURI: string;
        };
        SignatureResponse: {
            audio_hash: string;
            /**
             * Format: date-time
             * @description Issue time + 1 hour (UTC).
             */
            expires_at: string;
            job_id: string;
            /** @description 65-byte EIP-191 signature, hex. */
            signature: string;
        };
        SignatureResponseVariantB: {
            /** @description Unix seconds. */
            expiresAt: number;
            signature: string;
        };
        SongAttributes: {
            bpm?: number;
            /** @description Seconds; defaults to the linked job duration. */
            duration?: number;
            genre?: string;
            mood?: string;
        };
        SongDownload: {
            bytes: number;
            /** @example audio/flac */
            content_type: string;
            /**
             * Format: date-time
             * @description When `url` stops working (UTC).
             */
            expires_at: string;
            /**
             * @description The name the file is saved under: `<title> - <first 8 hex digits of the job id>.<format>`, the song's name (minted name, title, else its prompt) with characters no file system takes replaced.
             * @example Night drive - 3f1c2b9e.flac
             */
            file_name: string;
            /** @enum {string} */
            format: "mp3" | "wav" | "flac";
            job_id: string;
            /**
             * Format: uri
             * @description Presigned GET URL of the file, valid 1 hour; every request issues a fresh one. It answers with `Content-Disposition: attachment` naming `file_name` (RFC 6266, `filename*` in UTF-8), so a browser saves the file.
             */
            url: string;
        };
        TradingPool: {
            chain_id: number;
            /** @description The song's creator, as SongLaunched names it. */
            creator: string;
            fees: {
                /** @description What `SongVault.claim` would pay each party now, read from `claimableFeesOf` at answer time (token credits count from the end of the launch fee window); null when the chain could not be read. */
                claimable: {
                    block_number: string;
                    creator: {
                        /** @description The party that `SongVault.claim` pays. */
                        account: string;
                        /** @description Wei. */
                        eth: string;
                        /** @description Song token base units. */
                        token: string;
                    };
                    platform: {
                        /** @description The party that `SongVault.claim` pays. */
                        account: string;
                        /** @description Wei. */
                        eth: string;
                        /** @description Song token base units. */
                        token: string;
                    };
                } | null;
                collected: {
                    /** @description LP fees collected, wei (Uniswap v4 computes LP fees only when a position is touched, so uncollected LP fees are not shown). */
                    lp_fees_eth: string;
                    /** @description LP fees collected, song token units. */
                    lp_fees_token: string;
                    /** @description Hook swap fees collected, wei. */
                    swap_fees_eth: string;
                };
                /** @description Fees credited to each party by `collectFees` so far, all time (FeesCollected). */
                credited: {
                    creator: {
                        /** @description Wei. */
                        eth: string;
                        /** @description Song token base units (18 decimals). */
                        token: string;
                    };
                    platform: {
                        /** @description Wei. */
                        eth: string;
                        /** @description Song token base units (18 decimals). */
                        token: string;
                    };
                };
                /** @description Wei of ETH the hook charged on swaps, all time (the PoolManager's ERC-6909 mints of the fees). */
                swap_fees_eth: string;
                /** @description Of those, wei not yet moved into the parties' balances by `collectFees`. */
                uncollected_swap_fees_eth: string;
            };
            launch_tx_hash: string;
            /** Format: date-time */
            launched_at: string;
            /** @description Active liquidity at the current tick (Uniswap v4 L), from the indexed Swap and ModifyLiquidity events. */
            liquidity: string;
            /**
             * @description The song's NFT route.
             * @example /v1/nft/1
             */
            nft_url: string;
            /** @description Uniswap v4 PoolId (keccak256 of the pool key). */
            pool_id: string;
            /** @description Null only in the instant between the launch and its Initialize log being indexed. */
            price: {
                /** @description Block of that event. */
                block_number: string;
                /** @description ETH per song token, the inverse, decimal, rounded down to 18 places. */
                eth_per_token: string;
                /**
                 * @description `swap`: the latest indexed Swap; `launch`: the pool's Initialize (no swap yet).
                 * @enum {string}
                 */
                source: "swap" | "launch";
                /** @description sqrtPriceX96 of the latest indexed Swap (of Initialize before any swap). */
                sqrt_price_x96: string;
                tick: number;
                /**
                 * @description Song tokens per ETH, (sqrtPriceX96 / 2^96)^2, decimal, rounded down to 18 places.
                 * @example 1234567.891
                 */
                tokens_per_eth: string;
            } | null;
            /**
             * @description SongNFT token id.
             * @example 1
             */
            song_id: string;
            /** @description The song's SongToken (currency1; currency0 is native ETH). */
            token: string;
            /** @description Swaps since the launch. */
            trades_total: number;
            /**
             * @description This pool's route.
             * @example /v1/trading/pools/1
             */
            url: string;
            volume_24h: {
                /** @description Wei of ETH swapped through the pool in the last 24 hours (|amount0| of each Swap, before the hook fee). */
                eth: string;
                /** @description Song token units swapped in the last 24 hours. */
                token: string;
                /** @description Swaps in the last 24 hours. */
                trades: number;
            };
        };
        TradingPools: {
            /** @description Last block the indexer has read (confirmed); null before its first batch or without a chain. */
            indexed_through_block: string | null;
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
            pools: components["schemas"]["TradingPool"][];
        };
        Upload: {
            bytes: number;
            channels: number;
            /** Format: date-time */
            created_at: string;
            /** @description Seconds, as decoded (to the millisecond). An edit works on its whole seconds. */
            duration: number;
            /**
             * Format: date-time
             * @description When retention deletes the file (30 days after the upload).
             */
            expires_at: string;
            /** @enum {string} */
            format: "wav" | "flac" | "mp3";
            /**
             * @description The name sent with it (Songmint-Upload-Name); its edits are titled after it. Null when none was sent.
             * @example chord.wav
             */
            name: string | null;
            /**
             * Format: date-time
             * @description When the uploader confirmed the rights statement (recorded with it).
             */
            rights_confirmed_at: string;
            sample_rate: number;
            /** @description SHA-256 of the file as uploaded; edits made from it name it. */
            sha256: string;
            /** @example upl_5b0e7a52-3c1d-4f0e-9a51-0d2a7c9e4b13 */
            upload_id: string;
        };
        UploadDeleted: {
            /** @enum {string} */
            status: "deleted";
            upload_id: string;
        };
        UploadList: {
            /** @description Cursor of the next page; null on the last page. */
            next_cursor: string | null;
            /**
             * @description The statement an upload confirms with the header `Songmint-Rights-Confirmed: true`, versioned (it starts with its version) and recorded with each upload: show it in full beside an upload control.
             * @example v1: I own this audio or hold a licence to it that allows me to upload it and have it edited with AI, and it infringes no one else’s rights.
             */
            rights_statement: string;
            /** @description Newest first; deleted and expired uploads are not listed. */
            uploads: components["schemas"]["ListedUpload"][];
        };
        UserProfile: {
            /** Format: date-time */
            created_at: string;
            daily_generations: number;
            daily_limit: number;
            id: string;
            /** Format: date */
            last_generation_reset: string;
            /** @description Extension: what is left now. A song needs room in both songs.daily and songs.hourly; a refused request counts in neither. */
            limits: {
                previews: {
                    /** @description The hourly `preview` category (previews never touch the daily counter); reset_at is the end of this hour. */
                    hourly: {
                        limit: number;
                        remaining: number;
                        /**
                         * Format: date-time
                         * @description When the counter starts again (ISO 8601 UTC).
                         */
                        reset_at: string;
                        used: number;
                    };
                };
                songs: {
                    /** @description The tier's daily generations (the spec's daily counter, UTC day); reset_at is the next UTC midnight. */
                    daily: {
                        limit: number;
                        remaining: number;
                        /**
                         * Format: date-time
                         * @description When the counter starts again (ISO 8601 UTC).
                         */
                        reset_at: string;
                        used: number;
                    };
                    /** @description The hourly `generation` category; reset_at is the end of this hour. */
                    hourly: {
                        limit: number;
                        remaining: number;
                        /**
                         * Format: date-time
                         * @description When the counter starts again (ISO 8601 UTC).
                         */
                        reset_at: string;
                        used: number;
                    };
                };
            };
            max_duration: number;
            /** @description Extension: the models the live workers run (their heartbeats), whether they sing, and the longest song they finish. */
            models: {
                live: {
                    /** @description The longest song a live worker running it finishes, per steps value. */
                    max_duration: {
                        /** @description At 27 steps (the default). */
                        27: number | null;
                        /** @description At 60 steps. */
                        60: number | null;
                    };
                    name: string;
                    /** @description The model sings the lyrics it is given. */
                    sings: boolean;
                    version: string;
                    /** @description Live workers running it. */
                    workers: number;
                }[];
                /** @description The longest song (seconds) any live worker finishes within the job limit, per steps value: measured by each worker on its device at start. A longer request is refused with GEN_004 before anything is charged; the tighter of this and the tier's `max_duration` applies. Null: no measured limit applies (no live worker, or one from before the measurement). */
                max_duration: {
                    /** @description At 27 steps (the default). */
                    27: number | null;
                    /** @description At 60 steps. */
                    60: number | null;
                };
                /** @description True only when a worker is live and every live worker's model sings the lyrics it is given (ACE-Step): a job goes to whichever worker claims it. False: songs are instrumental; lyrics (given or written) are recorded with the song and condition the music, but no voice sings them. */
                sings: boolean;
            };
            public_profile: components["schemas"]["PublicProfile"];
            social_fid: string | null;
            statistics: {
                audio_seconds_generated: number;
                jobs: {
                    completed: number;
                    failed: number;
                    processing: number;
                    queued: number;
                };
                minted: number;
            };
            /** @description Extension: storage quota. An upload, song, edit or cover that would pass it is refused with STORAGE_001 (409) before anything is stored or charged; retention, the trash and deleting uploads give bytes back. */
            storage: {
                /** @description Held for your queued and running songs until they store their files (estimated from their length). */
                pending_bytes: number;
                /** @description Your tier's quota: free 2 GiB, pro 50 GiB, enterprise 1 TiB. */
                quota_bytes: number;
                /** @description quota - used - pending, at least 0. */
                remaining_bytes: number;
                /** @description Bytes the store holds for you: uploads (every byte of the file, metadata chunks included), songs (MP3, WAV and FLAC masters, kept latents) and covers. */
                used_bytes: number;
            };
            /** @enum {string} */
            tier: "free" | "pro" | "enterprise";
            total_generations: number;
            total_minted: number;
            /** Format: date-time */
            updated_at: string;
            wallet_address: string;
        };
        WebhookPayload: {
            /** @description The job as GET /api/generate/{job_id} shows it. */
            data: {
                /** @description Seconds. */
                estimated_remaining: number;
                job_id: string;
                position: number;
                progress: number;
                /** @enum {string} */
                status: "queued";
            } | {
                /** @description Seconds. */
                estimated_remaining: number;
                job_id: string;
                progress: number;
                /** @enum {string} */
                status: "processing";
            } | {
                /** @example 0xabababababababababababababababababababababababababababababababab */
                audio_hash: string;
                /** Format: uri */
                audio_url: string;
                content_credentials: components["schemas"]["ContentCredentials"];
                /** Format: date-time */
                created_at: string;
                duration: number;
                edit_of: components["schemas"]["EditOf"] | null;
                job_id: string;
                lossless: components["schemas"]["LosslessFiles"];
                /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
                lyrics: string | null;
                model: components["schemas"]["ModelRecord"];
                /**
                 * @description The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null until then.
                 * @example 1
                 */
                nft_token_id: string | null;
                /** @description True once the chain watcher has seen the song minted with its platform signature (confirmed blocks deep); false before, also while a signature is issued but unused. */
                signature_used: boolean;
                /** @enum {string} */
                status: "completed";
            } | {
                error: {
                    code: components["schemas"]["ErrorCode"];
                    message: string;
                    retry_after?: number;
                };
                job_id: string;
                /** @enum {string} */
                status: "failed";
            } | {
                job_id: string;
                /** @enum {string} */
                status: "cancelled";
            };
            /**
             * Format: date-time
             * @description When the job reached this state.
             */
            timestamp: string;
            /** @enum {string} */
            type: "generation.completed" | "generation.failed";
        };
        WebhookSecret: {
            /**
             * Format: date-time
             * @description When this secret was made (by first use or rotation).
             */
            created_at: string;
            /**
             * @description Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the HMAC key).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    signInWithFarcaster: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The SIWF message and signature the Farcaster client returned. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FarcasterSignInRequest"];
            };
        };
        responses: {
            /** @description Session token; `user.social_fid` names the fid. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionToken"];
                };
            };
            /** @description Invalid request body (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Sign-in refused (AUTH_ERROR): forged or replayed message, wrong domain, expired, or a signer that does not hold the fid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description CONFLICT: the fid is linked to another account, or the wallet to another fid. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit of the client IP address (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: OP Mainnet cannot be read now; the nonce stays usable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getSignInNonce: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Nonce and the domain, URI and chain the message must name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthNonce"];
                };
            };
            /** @description Hourly limit of the client IP address (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    signInWithQuickAuth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The Quick Auth token, and a wallet proof on first sign-in. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["QuickAuthSignInRequest"];
            };
        };
        responses: {
            /** @description Session token; `user.social_fid` names the fid. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionToken"];
                };
            };
            /** @description Invalid request body (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Sign-in refused (AUTH_ERROR): invalid or expired token, another audience, or a fid with no account and no wallet proof. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description CONFLICT: the fid is linked to another account, or the wallet to another fid. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit of the client IP address (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the issuer's key set cannot be fetched now. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The message and its personal_sign signature (EOA or smart wallet). */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AuthVerifyRequest"];
            };
        };
        responses: {
            /** @description Session token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionToken"];
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, GEN_003, GEN_004: longer than the tighter of your tier and the running model allow, the message names which). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Sign-in refused (AUTH_ERROR): wrong domain, URI, chain, time window, signature or nonce. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit of the client IP address (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database, or the chain a smart-wallet signature is checked on, cannot be read now. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Opaque: the `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Extension (the library): `all` (default) every song not in the trash; `minted`; `unminted` (completed, not minted); `edits`; `failed` (failed or cancelled); `trash` (moved there with DELETE, restorable). */
                filter?: "all" | "minted" | "unminted" | "edits" | "failed" | "trash";
                /** @description Jobs per page, 1 to 100 (default 20). */
                limit?: number;
                /** @description Extension (the library): only songs whose name (minted name or title), prompt or lyrics contain this text, case-insensitively; at most 200 characters. Blank: no search. */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page; pass `next_cursor` back as `cursor` for the next. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobList"];
                };
            };
            /** @description Bad cursor, limit, filter or search text, or an unknown parameter (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
                /** @description `wait` selects Variant B: body {prompt, duration}, response {audioUrl, audioHash, duration, lyrics, model} when the job ends (at most 300 s). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Variant A body, or Variant B body with `Prefer: wait`. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerateRequest"] | components["schemas"]["GenerateRequestVariantB"];
            };
        };
        responses: {
            /** @description Variant B: the finished song. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerateResultVariantB"];
                };
            };
            /** @description Variant A: job queued (Variant B: still running at the time limit; poll Location). */
            202: {
                headers: {
                    /** @description Maximum allowed in the window (the tighter of the daily and hourly limits). */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerateAccepted"] | {
                        /** @description Seconds. */
                        estimated_remaining: number;
                        job_id: string;
                        position: number;
                        progress: number;
                        /** @enum {string} */
                        status: "queued";
                    } | {
                        /** @description Seconds. */
                        estimated_remaining: number;
                        job_id: string;
                        progress: number;
                        /** @enum {string} */
                        status: "processing";
                    } | {
                        /** @example 0xabababababababababababababababababababababababababababababababab */
                        audio_hash: string;
                        /** Format: uri */
                        audio_url: string;
                        content_credentials: components["schemas"]["ContentCredentials"];
                        /** Format: date-time */
                        created_at: string;
                        duration: number;
                        edit_of: components["schemas"]["EditOf"] | null;
                        job_id: string;
                        lossless: components["schemas"]["LosslessFiles"];
                        /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
                        lyrics: string | null;
                        model: components["schemas"]["ModelRecord"];
                        /**
                         * @description The minted SongNFT token id (uint256 as a decimal string), set with `signature_used`; null until then.
                         * @example 1
                         */
                        nft_token_id: string | null;
                        /** @description True once the chain watcher has seen the song minted with its platform signature (confirmed blocks deep); false before, also while a signature is issued but unused. */
                        signature_used: boolean;
                        /** @enum {string} */
                        status: "completed";
                    } | {
                        error: {
                            code: components["schemas"]["ErrorCode"];
                            message: string;
                            retry_after?: number;
                        };
                        job_id: string;
                        /** @enum {string} */
                        status: "failed";
                    } | {
                        job_id: string;
                        /** @enum {string} */
                        status: "cancelled";
                    };
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, GEN_003, GEN_004: longer than the tighter of your tier and the running model allow, the message names which). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_002: a request with this Idempotency-Key is still running (Retry-After: 1); STORAGE_001: the song would pass your storage quota (nothing stored or charged); EDIT_002 and LIBRARY_002 for an edit. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Daily tier limit (RATE_001 body) or hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DailyLimitError"] | components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description GEN_001 queue full, GEN_002 no GPU worker, or database unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a view the client holds: 304 while the job shows the same view. */
                "If-None-Match"?: string;
            };
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued/processing, completed or failed. */
            200: {
                headers: {
                    /** @description `private, no-cache`: keep the view, revalidate it each time. */
                    "Cache-Control": string;
                    /** @description Strong tag of the response body (SHA-256 prefix); send it back as `If-None-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatus"];
                };
            };
            /** @description Not modified: the view matching `If-None-Match` is current (no body; still counts as a request). */
            304: {
                headers: {
                    /** @description `private, no-cache`: keep the view, revalidate it each time. */
                    "Cache-Control": string;
                    /** @description Strong tag of the response body (SHA-256 prefix); send it back as `If-None-Match`. */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    deleteJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The song, in the trash (`deleted_at` set). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobSummary"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description The song is minted (LIBRARY_001), or still queued or processing: cancel it first (LIBRARY_004). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    renameJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RenameJobRequest"];
            };
        };
        responses: {
            /** @description The song, renamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobSummary"];
                };
            };
            /** @description A title empty, longer than 200 characters or with a NUL (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description The song is minted (LIBRARY_001) or in the trash (LIBRARY_002). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobCancelled"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description The job is completed or failed (CONFLICT). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getLosslessDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                format: "mp3" | "wav" | "flac";
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The download URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SongDownload"];
                };
            };
            /** @description The format is not mp3, wav or flac (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours, not completed yet, its lossless files still being made (`retry_after` 2 s), a song without lossless files (made before they were kept, or not made), or whose audio retention deleted (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description The song is in the trash: restore it first (LIBRARY_002). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage or database unavailable (SERVICE_UNAVAILABLE). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    streamJobEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `id` of the last event received: only later changes are sent. */
                "Last-Event-ID"?: string;
            };
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream (`event:` status|completed|failed|cancelled, `id:` version, `data:` JobStatus JSON). */
            200: {
                headers: {
                    /** @description Maximum allowed in the window (the tighter of the daily and hourly limits). */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description This replica serves its maximum of streams (Retry-After), or the database is unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    restoreJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The song, back in the library (`deleted_at` null). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobSummary"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such job of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Retention deleted the song’s audio: it can no longer be restored (LIBRARY_003). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    publishMetadata: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MetadataRequest"] | components["schemas"]["MetadataRequestVariantB"];
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetadataResponse"] | components["schemas"]["MetadataResponseVariantB"];
                };
            };
            /** @description Invalid input or cover image (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_002: a request with this Idempotency-Key is still running; STORAGE_001: the cover would pass your storage quota (nothing stored, not charged). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Cover above 5 MB or body above 8 MB (PAYLOAD_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly metadata and NFT limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage or the pinning service unavailable (SERVICE_UNAVAILABLE). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    createPreview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PreviewRequest"];
            };
        };
        responses: {
            /** @description Preview queued; poll Location. */
            202: {
                headers: {
                    /** @description Hourly preview limit of the tier. */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreviewAccepted"];
                };
            };
            /** @description Invalid input (VALIDATION_ERROR, GEN_003 prompt, GEN_004 duration above 15 s). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_002: a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly preview limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description GEN_001 queue full, GEN_002 no GPU worker, or database unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Server-generated preview session id. */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued/processing, completed or failed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreviewStatus"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such preview of yours (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description PREVIEW_EXPIRED: the preview is past its 24 hours and its clip is deleted. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage or database unavailable (SERVICE_UNAVAILABLE). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    issueSignature: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SignatureRequest"] | components["schemas"]["SignatureRequestVariantB"];
            };
        };
        responses: {
            /** @description Signature issued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignatureResponse"] | components["schemas"]["SignatureResponseVariantB"];
                };
            };
            /** @description Invalid input (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description user_address is not the authenticated wallet (FORBIDDEN); SIGN_005: the model that made the audio is licensed for non-commercial use only; SIGN_008: more of the song than the operator allows (MINT_MAX_OUTSIDE_SHARE) is uploaded audio kept verbatim. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description SIGN_001: no such job of the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description SIGN_002 already signed, SIGN_003 not completed, SIGN_004 audio hash mismatch, SIGN_006 another job made the same sound first or holds its signature, SIGN_007 the song (one carrying uploaded audio) contains a sound made earlier for another account (named in `error.earlier_song`); IDEM_002 a request with this Idempotency-Key is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly metadata and NFT limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage, or the chain while telling whether an earlier signature still works, unavailable (SERVICE_UNAVAILABLE). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    listUploads: {
        parameters: {
            query?: {
                /** @description Opaque: the `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Uploads per page, 1 to 100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page; pass `next_cursor` back as `cursor` for the next. */
            200: {
                headers: {
                    /** @description Maximum allowed in the window (the tighter of the daily and hourly limits). */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadList"];
                };
            };
            /** @description Bad cursor or limit, or an unknown parameter (VALIDATION_ERROR). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    uploadAudio: {
        parameters: {
            query?: never;
            header: {
                /** @description Confirms the rights statement above (required). */
                "Songmint-Rights-Confirmed": "true";
                /** @description The file's name, percent-encoded UTF-8 (encodeURIComponent), at most 200 characters (optional): the upload's `name`, after which its edits are titled. A name that does not decode, or too long, is 400 VALIDATION_ERROR. */
                "Songmint-Upload-Name"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
                "audio/flac": string;
                "audio/mpeg": string;
                "audio/wav": string;
            };
        };
        responses: {
            /** @description Upload taken. */
            201: {
                headers: {
                    /** @description Maximum allowed in the window (the tighter of the daily and hourly limits). */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            /** @description VALIDATION_ERROR a Songmint-Upload-Name that does not decode or is too long; UPLOAD_004 rights not confirmed; UPLOAD_002 the audio does not decode (a FLAC frame that contradicts its STREAMINFO included); UPLOAD_003 no audio or shorter than 1 s; GEN_004 longer than your tier allows. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description BODY_TOO_SLOW: the body fell behind 100 KiB/s after its first 5 s; the connection is closed and nothing is charged. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description UPLOAD_005: the audio contains a song made for another account (signed or not), however re-encoded, filtered, overlaid, cut, sped up or transposed (by its landmark fingerprint; named in `error.earlier_song`), or, where the operator configured an AcoustID-compatible lookup, a recording that service knows. Nothing stored; the hourly charge is given back. STORAGE_001: the file (every byte of it, metadata chunks included) would pass your storage quota; refused before it is decoded or stored, the hourly charge given back. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description The file is larger than 104857600 bytes (PAYLOAD_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description UPLOAD_001: not WAV, FLAC or MP3, or an encoding, sample rate (8-192 kHz) or channel count of them not taken, a free-format MP3 frame, an MP3 whose rate or channels change mid-stream, or a body sent with a Content-Encoding (gzip or any other: refused unread, never inflated). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description UPLOAD_007: decoding it took longer than 10 s (the decode is stopped there); the time was spent, so the hourly charge stands. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description UPLOAD_006: too many of your uploads in flight (refused before the body is read), or of this server's or its decode queue's (refused once the body is here); never charged; see Retry-After. RATE_002: hourly limit. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage or database unavailable (SERVICE_UNAVAILABLE). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    deleteUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    /** @description Maximum allowed in the window (the tighter of the daily and hourly limits). */
                    "X-RateLimit-Limit": string;
                    /** @description Remaining in the window. */
                    "X-RateLimit-Remaining": string;
                    /** @description Unix timestamp (seconds) of the reset. */
                    "X-RateLimit-Reset": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadDeleted"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description No such upload of yours: unknown, malformed, someone else's, already deleted or expired (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description An edit of this upload is queued or running (CONFLICT, with its `job_id`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Object storage or database unavailable (SERVICE_UNAVAILABLE); nothing was deleted. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Missing or invalid token (AUTH_ERROR). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantA"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready: the database is down or no worker has a fresh heartbeat. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    createJobV1: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Generation request. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerateRequest"];
            };
        };
        responses: {
            /** @description Job queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerateAccepted"];
                };
            };
            /** @description Invalid input; GEN_004 longer than the tighter of your tier and the running model allow. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description Missing or invalid token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description IDEM_002: a request with this Idempotency-Key is still running; STORAGE_001: the song would pass your storage quota (nothing stored or charged). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description Daily (RATE_001) or hourly (RATE_002) limit. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description GEN_001, GEN_002 or database unavailable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getNft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Token id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Nft"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description AUTH_ERROR */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly metadata and NFT limit */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    mintAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 printable ASCII characters (a UUID). The same key with the same body within 24 hours answers the first successful response again (header `Idempotent-Replayed: true`) and runs nothing; with another body: 422 IDEM_001; while the first request runs: 409 IDEM_002 (retry after 1 s). Failed requests are not kept. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["NftMintRequest"];
            };
        };
        responses: {
            /** @description Signature issued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NftMintResponse"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description AUTH_ERROR */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description FORBIDDEN: user_address is not the authenticated wallet; SIGN_005; SIGN_008 too much of the song is uploaded audio */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description SIGN_001 */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description SIGN_002, SIGN_003, SIGN_004, SIGN_006; SIGN_007 the song (one carrying uploaded audio) contains a sound made earlier for another account (`details.earlier_song`); IDEM_002 (a request with this Idempotency-Key is still running) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description IDEM_001: Idempotency-Key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly metadata and NFT limit */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getCoin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description SongNFT token id. */
                songId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The coin. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Coin"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND: not launched, or the launch is not indexed yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getCoinTrades: {
        parameters: {
            query?: {
                /** @description Opaque: a `next_cursor` of this route. */
                cursor?: string;
                /** @description Trades per page, 1 to 200 (default 50). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description SongNFT token id. */
                songId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of trades. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CoinTrades"];
                };
            };
            /** @description VALIDATION_ERROR: a bad song id, cursor or limit */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND: not launched, or the launch is not indexed yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getCreator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A 0x address (any case). */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorProfile"];
                };
            };
            /** @description VALIDATION_ERROR: not an address */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getPortfolio: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A 0x address (any case). */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The portfolio. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Portfolio"];
                };
            };
            /** @description VALIDATION_ERROR: not an address */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    listPublicSongs: {
        parameters: {
            query?: {
                /** @description Opaque: a `next_cursor` of this route. */
                cursor?: string;
                /** @description Songs per page, 1 to 100 (default 20). */
                limit?: string;
                /** @description Keeps the songs whose title, genre or creator address contains it (any case); 1 to 80 characters. */
                q?: string;
                /** @description The order: `newest` launch first (the default), `market_cap` largest first, `volume_24h` (ETH swapped in the last 24 hours) largest first; ties newest first. A cursor belongs to its order. */
                sort?: "newest" | "market_cap" | "volume_24h";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of launched songs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicSongs"];
                };
            };
            /** @description VALIDATION_ERROR: a bad sort, search, cursor (or a cursor of another order) or limit */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getPublicSong: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description SongNFT token id. */
                songId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The song. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicSong"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    listPools: {
        parameters: {
            query?: {
                /** @description Opaque: a `next_cursor` of this route. */
                cursor?: string;
                /** @description Pools per page, 1 to 100 (default 20). */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pools. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradingPools"];
                };
            };
            /** @description VALIDATION_ERROR: a bad cursor or limit */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description AUTH_ERROR */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description SongNFT token id. */
                songId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pool. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradingPool"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description AUTH_ERROR */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND: not launched, or the launch is not indexed yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getPoolHistory: {
        parameters: {
            query?: {
                /** @description Opaque: a `next_cursor` of this route. */
                cursor?: string;
                /** @description Swaps per page, 1 to 500 (default 100). */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description SongNFT token id. */
                songId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of swaps and the launch price. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolHistory"];
                };
            };
            /** @description VALIDATION_ERROR: a bad song id, cursor or limit, or an unknown parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description NOT_FOUND: not launched, or the launch is not indexed yet */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly trading limit of this client address */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserProfile"];
                };
            };
            /** @description Missing or invalid token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description Hourly limit (RATE_002). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    changeProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ProfileChange"];
            };
        };
        responses: {
            /** @description Your profile as everyone reads it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicProfile"];
                };
            };
            /** @description VALIDATION_ERROR: a display name or bio with control, bidi-override or invisible characters, too long, an unknown field, no field at all, or an avatar that is not a base64 data URI of a PNG, JPEG, WebP or GIF image matching its declared type. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description AUTH_ERROR: missing or invalid token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description STORAGE_001: the avatar does not fit your storage quota; nothing was stored. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: an avatar over 5 MB decoded, or a body over 8 MB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description RATE_002: the hourly limit. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: object storage or IPFS pinning failed; nothing was changed. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorVariantC"];
                };
            };
        };
    };
    generationWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The event. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
