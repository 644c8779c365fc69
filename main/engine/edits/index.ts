// Brand Edits: the refresh in the sync pass, the user's actions, and how an edit reads.
export {
  brandEditsFeature,
  editsUnavailableSinceSetting,
  refreshEditsKey,
  FOLLOWED_EDIT_STATES,
  refreshEditsKind,
  type RefreshEditsResult,
} from './edits-feature.ts';
export {
  answerEdit,
  applyEdit,
  discardEdit,
  EditActionError,
  EDITS_UNAVAILABLE_MESSAGE,
  listEdits,
  refreshEdits,
  showEdit,
  type EditAnswer,
  type EditDeps,
  type EditListing,
} from './edit-actions.ts';
export {
  applyEditAndBringSkill,
  type AppliedEdit,
  type ApplyAnswer,
  type ApplyEditOptions,
} from './apply-edit.ts';
export {
  describeEditState,
  EDIT_STATES,
  editDoc,
  PENDING_EDIT_STATES,
  WAITING_EDIT_STATES,
  type EditDoc,
} from './edit-doc.ts';
export { describeAccepts, editChangeLines, editStateLine, markdownDiff } from './edit-text.ts';
