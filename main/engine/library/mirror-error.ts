// Failures of the Library mirror and the media cache that are not service errors.
import { CodedError } from '../core/coded-error.ts';

export type MirrorErrorCode =
  | 'INVALID_OPTION'
  | 'BROKEN_PAGING' // the service's paging contradicts itself (more pages, no cursor; a cursor twice)
  | 'ITEM_NOT_FOUND' // no such item in the mirror
  | 'NOT_CACHEABLE' // the item has no URL or is not an image, a video or audio
  | 'OFFLINE'; // never fetched, and nothing can fetch it now

export class MirrorError extends CodedError<MirrorErrorCode> {}
