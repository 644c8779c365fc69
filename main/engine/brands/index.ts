// Brands: durable creation, deletion, and what a failed creation means.
export { brandCreationFeature } from './brand-creation-feature.ts';
export {
  createBrandKind,
  createBrandKey,
  CreateBrandPayload,
  CREATION_FACTS,
  type BrandCreationResult,
} from './create-brand-job.ts';
export {
  BrandCreationInputError,
  checkCreationRequest,
  creationHash,
  CreationRequest,
  MAX_FILE_BYTES,
  MAX_INSTRUCTIONS,
  MAX_SOURCES,
  MAX_TOTAL_FILE_BYTES,
  requestLabel,
  type BrandCreationInput,
  type SourceSpec,
} from './creation-request.ts';
export { startBrandCreation, type StartedCreation } from './start-creation.ts';
export { creationSources, runCreation, type CreationSources } from './create-brand-now.ts';
export { brandFailureAdvice, type BrandFailureAdvice } from './brand-failure.ts';
export { deleteBrand, type DeletedBrandResult } from './delete-brand.ts';
