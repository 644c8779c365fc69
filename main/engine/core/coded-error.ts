// An error that is a typed value with a code: faces show its message and act on its code
// (the bridge carries both as plain data).
export class CodedError<C extends string = string> extends Error {
  readonly code: C;
  constructor(code: C, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}
