// The public face of the API client.
export { LawsuitApi, type ApiClientOptions, type ApiStats } from './client.js';
export { ApiError, API_CODES, isApiError, type ApiErrorCode } from './errors.js';
export { AdaptiveLimiter, type LimiterOptions, type LimiterSnapshot, type ScheduleOptions } from './rate-limit.js';
export { retryDelay, parseResetAt, parseRetryAfter, type BackoffOptions, type RetryHints } from './backoff.js';
export { walkPages, walkItems, readEnvelope, type Page, type Cursor } from './paginate.js';
export { sameSearch } from './search-match.js';
export type { CallEvent, HttpStats } from './call-stats.js';
export type { CreateRequestOptions, ListRequestsQuery } from './requests.js';
export type { ResponsesQuery, WalkResponsesOptions } from './responses.js';
export type { CreateTrackingResult, ListTrackingQuery } from './tracking.js';
export type { SyncQuery, TrueFalseQuery } from './lawsuits.js';
export type { TransferFileWithUrl, TransferListQuery, DownloadOptions, DownloadResult } from './transfer-files.js';
export * from '../spec/types.js';
