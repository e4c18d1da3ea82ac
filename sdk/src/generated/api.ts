// Generated from the oracle's /openapi.json by `npm run sdk:generate`. Do not edit: test/sdk/generated.test.ts fails on drift.
export interface paths {
    "/api/auth/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issue a single-use Sign-In with Ethereum nonce */
        get: {
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
            };
        };
        put?: never;
        post?: never;
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
        /** Exchange a signed EIP-4361 message for a session JWT */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The message and its personal_sign signature. */
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
                /** @description Invalid input (VALIDATION_ERROR, GEN_003, GEN_004). */
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
            };
        };
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
        get?: never;
        put?: never;
        /** Start a generation job (Variant A), or generate synchronously with `Prefer: wait` (Variant B) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `wait` selects Variant B: body {prompt, duration}, response {audioUrl, audioHash, duration} when the job ends (at most 300 s). */
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
                            /** Format: date-time */
                            created_at: string;
                            duration: number;
                            job_id: string;
                            /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
                            lyrics: string | null;
                            /** @enum {string} */
                            status: "completed";
                        } | {
                            error: {
                                /** @example GEN_005 */
                                code: string;
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
                /** @description Invalid input (VALIDATION_ERROR, GEN_003, GEN_004). */
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
        get: {
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
            };
        };
        put?: never;
        post?: never;
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
        post: {
            parameters: {
                query?: never;
                header?: never;
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
                /** @description Cover above 5 MB or body above 8 MB (PAYLOAD_TOO_LARGE). */
                413: {
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
         * @description Checks in order: (1) the job belongs to the caller (SIGN_001, 404), (2) it is completed (SIGN_003, 409), (3) no signature was issued before (SIGN_002, 409) — except one made by a platform key SongNFT has since retired, for audio never minted, which can never be used and is replaced by a signature from the current key, (4) the stored audio still hashes to the recorded value (SIGN_004, 409); then the model that made the audio must be licensed for commercial use unless the operator overrides it (SIGN_005, 403). `user_address` must be the authenticated wallet (FORBIDDEN, 403). Variant B (`metadataURI`, `audioHash`) finds the job by its audio hash and answers `{signature, expiresAt}`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
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
                /** @description user_address is not the authenticated wallet (FORBIDDEN); SIGN_005: the model that made the audio is licensed for non-commercial use only. */
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
                /** @description SIGN_002 already signed, SIGN_003 not completed, SIGN_004 audio hash mismatch. */
                409: {
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
        get: {
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
        get: {
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
        get: {
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
        get: {
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
        post: {
            parameters: {
                query?: never;
                header?: never;
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
                /** @description Invalid input. */
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
        get: {
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
            };
        };
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
        post: {
            parameters: {
                query?: never;
                header?: never;
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
                /** @description FORBIDDEN: user_address is not the authenticated wallet */
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
                /** @description SIGN_002, SIGN_003, SIGN_004 */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorVariantC"];
                    };
                };
            };
        };
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
        /** Variant C: song pools (not indexed yet: always an empty list with indexed=false) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pools. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TradingPools"];
                    };
                };
            };
        };
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
        get: {
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
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
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
            signature: string;
            /** @description Farcaster fid to link; accepted only when the IdRegistry confirms it. */
            social_fid?: number | string;
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
        ErrorVariantA: {
            error: {
                /** @example GEN_003 */
                code: string;
                details: string;
                job_id?: string;
                message: string;
                retry_after?: number;
            };
        };
        ErrorVariantC: {
            details: {
                [key: string]: unknown;
            };
            error: string;
            message: string;
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
        GenerateRequestVariantB: {
            /**
             * @description Seconds of audio, 5 to 240; capped by the tier (free 30, pro 120, enterprise 240).
             * @example 30
             */
            duration: number;
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
            duration: number;
        };
        Health: {
            service: string;
            /** @enum {string} */
            status: "ok";
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
            /** Format: date-time */
            created_at: string;
            duration: number;
            job_id: string;
            /** @description The lyrics the song was made with (given, or written by the lyrics step); null for an instrumental. */
            lyrics: string | null;
            /** @enum {string} */
            status: "completed";
        } | {
            error: {
                /** @example GEN_005 */
                code: string;
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
        Liveness: {
            /** @enum {string} */
            status: "alive";
            /** @description Seconds since the process started. */
            uptime_seconds: number;
        };
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
        Readiness: {
            checks: {
                /** @enum {string} */
                database: "up" | "down";
                workers: {
                    devices?: string[];
                    /** @description Workers with a fresh heartbeat. */
                    live?: number;
                    slots?: number;
                    /** @enum {string} */
                    status: "up" | "down" | "unknown";
                };
            };
            /** @enum {string} */
            status: "ready" | "not_ready";
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
        TradingPools: {
            count: number;
            /** @description false: pools are not indexed by this oracle yet; the list is empty by construction. */
            indexed: boolean;
            pools: {
                [key: string]: unknown;
            }[];
        };
        UserProfile: {
            /** Format: date-time */
            created_at: string;
            daily_generations: number;
            daily_limit: number;
            id: string;
            /** Format: date */
            last_generation_reset: string;
            max_duration: number;
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
            /** @enum {string} */
            tier: "free" | "pro" | "enterprise";
            total_generations: number;
            total_minted: number;
            /** Format: date-time */
            updated_at: string;
            wallet_address: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
