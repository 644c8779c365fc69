// A count with its noun that agrees with it: "1 item", "2 items", never "1 items".
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
