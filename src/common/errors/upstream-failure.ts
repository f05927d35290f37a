/**
 * Base of the errors a failed upstream call raises (the providers' UpstreamError). Its message is for logs:
 * the error filter answers it 502 MARKET_UPSTREAM_ERROR in words of its own, so no upstream host, status or
 * body reaches a client. Defined here so the filter knows it without importing any provider.
 */
export abstract class UpstreamFailure extends Error {}
