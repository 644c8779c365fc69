// Every benchmark prints its figures and writes them as JSON under bench/results/, so a
// figure quoted anywhere can be traced to one run of `npm run bench`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

export type Figure = number | string | boolean | null;
export interface Figures {
  [name: string]: Figure | Figures;
}

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');

export function report(bench: string, figures: Figures): void {
  const doc = {
    bench,
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    figures,
  };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `${bench}.json`), JSON.stringify(doc, null, 2) + '\n');
  console.log(`\n## ${bench}`);
  printFigures(figures, '  ');
}

function printFigures(figures: Figures, indent: string): void {
  for (const [name, value] of Object.entries(figures)) {
    if (value !== null && typeof value === 'object') {
      console.log(`${indent}${name}:`);
      printFigures(value, indent + '  ');
    } else {
      console.log(`${indent}${name}: ${typeof value === 'number' ? round(value) : String(value)}`);
    }
  }
}

function round(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(1) : n.toPrecision(3);
}

/** Percentile of a sample (nearest rank). */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) return NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
