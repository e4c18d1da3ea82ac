/**
 * Previews are stored by workers and signed by the oracle, so the module lives in core
 * (core/src/previews.ts); this name stays for the worker's and the sweep's imports.
 */
export { PREVIEW_RETENTION_HOURS, PREVIEW_URL_SECONDS, createPreview, previewLink, previewObjectKey } from '../../../core/src/previews.ts';
export type { PreviewLink, PreviewResult } from '../../../core/src/previews.ts';
