// No two engine modules import each other (a type import counts: the two must change
// together all the same). engine.ts and sync-pass.ts did; sync-pass now names what it needs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return modules(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

test('no engine module and one it imports import each other', () => {
  const graph = new Map<string, string[]>();
  for (const file of modules('main/engine')) {
    const source = readFileSync(file, 'utf8');
    const deps = [...source.matchAll(/^(?:import|export)[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) =>
      path.normalize(path.join(path.dirname(file), m[1] as string)),
    );
    graph.set(path.normalize(file), deps);
  }
  expect(graph.size).toBeGreaterThan(50);
  const pairs: string[] = [];
  for (const [a, deps] of graph) {
    for (const b of deps)
      if (a < b && (graph.get(b) ?? []).includes(a)) pairs.push(`${a} <-> ${b}`);
  }
  expect(pairs).toEqual([]);
});
