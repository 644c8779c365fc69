// Failures of the local store as typed values: callers branch on `code`, the message says
// what and where (never a secret: the store holds none).

export type StoreErrorCode =
  | 'OPEN_FAILED' // the database file could not be opened or is not a database
  | 'WAL_UNAVAILABLE' // the file system refused WAL mode
  | 'SCHEMA_TOO_NEW' // written by a newer Brand Sync: forward-only, we refuse to touch it
  | 'MIGRATION_FAILED' // a migration threw; its transaction was rolled back
  | 'INVALID_ARGUMENT' // a repository method got a value it cannot store
  | 'INVALID_CURSOR' // a paging cursor that this store did not hand out
  | 'NOT_FOUND' // a row that must exist does not
  | 'SECRET_REFUSED' // an attempt to put a credential into the database
  | 'CLOSED' // the store was used after close()
  | 'INJECTED_FAULT'; // a test hook made this write fail

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

export function isStoreError(value: unknown): value is StoreError {
  return value instanceof StoreError;
}
