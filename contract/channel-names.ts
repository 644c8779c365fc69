// The channel names alone, with no schema: the preload (sandboxed, bundled small) builds one
// named function per channel from this list. A test keeps it equal to the contract's map.
export const CHANNEL_NAMES = [
  'session',
  'status',
  'credits',
  'brands',
  'brand',
  'library',
  'media',
  'skill',
  'skillFile',
  'files',
  'edits',
  'edit',
  'activity',
  'settings',
  'image',
  'imageEdits',
  'imageEditQuote',
  'search',
  'signIn',
  'signOut',
  'pause',
  'resume',
  'syncNow',
  'createBrand',
  'retryBrand',
  'deleteBrand',
  'applyEdit',
  'discardEdit',
  'answerEdit',
  'imageEdit',
  'retryJob',
  'retryFile',
  'cancelJob',
  'syncSkill',
  'updateSettings',
  'clearMediaCache',
  'addFiles',
  'forgetBrand',
  'openFolder',
] as const;

/** IPC names: `bridge:<channel>` for calls, one channel for the pushed events. */
export const IPC_INVOKE_PREFIX = 'bridge:';
export const IPC_EVENT_CHANNEL = 'bridge:event';
/** The global the preload exposes to the window. */
export const PRELOAD_GLOBAL = 'brandSync';
