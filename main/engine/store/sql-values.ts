// Conversions between SQLite's storage values and the typed values repositories return.

export function toFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

export function fromFlag(value: number | null): boolean {
  return value === 1;
}

export function fromNullableFlag(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

/** JSON text for a column; undefined and null both store NULL. */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJson(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

export function nullable<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** A string as an SQL literal, for the few statements where a bound value costs a re-prepare. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
