// Generated from the ErrorCode enum of the oracle's /openapi.json by `npm run sdk:generate`. Do not edit: test/sdk/generated.test.ts fails on drift.

/** Every code the API answers with (docs/api.md). */
export const API_ERROR_CODES = [
  'GEN_001',
  'GEN_002',
  'GEN_003',
  'GEN_004',
  'GEN_005',
  'SIGN_001',
  'SIGN_002',
  'SIGN_003',
  'SIGN_004',
  'SIGN_005',
  'SIGN_006',
  'RATE_001',
  'RATE_002',
  'IDEM_001',
  'IDEM_002',
  'PREVIEW_EXPIRED',
  'EDIT_001',
  'EDIT_002',
  'EDIT_003',
  'EDIT_004',
  'EDIT_005',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'AUTH_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
