// The public face of the API client: what the rest of the engine imports.
export { createApiClient, type ApiClient, type ApiClientOptions } from './client.ts';
export { ApiError, CLIENT_ERROR_CODES, isApiError, type ApiErrorKind } from './errors.ts';
export { describeApiError, hintFor, pauseNote } from './messages.ts';
export { RateGate, rateGateFor } from './rate-gate.ts';
export { Pacer, pacerOf } from './pacer.ts';
export { realClock, scaledClock, type Clock } from './clock.ts';
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type Credentials, type RetryPolicy } from './http.ts';
export {
  brandFailureAction,
  duplicateBrandsOf,
  goneStagedUploads,
  isBrandSettled,
  prepareBrandCreation,
  type BrandSource,
  type CreateBrandInput,
  type PreparedBrandCreation,
} from './brands.ts';
export { isUuid } from './input.ts';
export type * from './schemas.ts';
