// Images and their edits: pricing and starting an edit, and what a finished image means.
export {
  credits,
  explainImageEditError,
  IMAGE_EDIT_COST,
  IMAGE_MODELS,
  IMAGE_SIZES,
  ImageEditRefused,
  MAX_PROMPT,
  MAX_REFERENCES,
  planImageEdit,
  quoteImageEdit,
  startImageEdit,
  workspaceLabel,
  type CreditCheck,
  type ImageEditPlan,
  type ImageEditRequest,
  type ImageModel,
  type ImageSize,
} from './image-edit.ts';
export { imageFailureAdvice } from './image-status.ts';
export {
  IMAGE_EDIT_DONE,
  IMAGE_EDIT_FAILED,
  IMAGE_EDITS_FEATURE,
  findImageEdits,
  imageEditsFeature,
  imageEditsOf,
  type ImageEdits,
} from './image-edits-feature.ts';
export { imageEditsSetting, isImageFinished, type ImageEditState } from './image-edit-state.ts';
