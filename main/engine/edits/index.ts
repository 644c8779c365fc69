// Brand Edits: the refresh in the sync pass, the user's actions, and how an edit reads.
export {
  brandEditsFeature,
  editsUnavailableSinceSetting,
  refreshEditsKey,
  refreshEditsKind,
  type RefreshEditsResult,
} from './edits-feature.ts';
export {
  applyEdit,
  discardEdit,
  EditActionError,
  EDITS_UNAVAILABLE_MESSAGE,
  listEdits,
  refreshEdits,
  showEdit,
  type EditDeps,
  type EditListing,
} from './edit-actions.ts';
export {
  describeEditState,
  EDIT_STATES,
  editDoc,
  PENDING_EDIT_STATES,
  type EditDoc,
} from './edit-doc.ts';
export { describeAccepts, editChangeLines, editStateLine, markdownDiff } from './edit-text.ts';
