// Fault injection, deterministic by seed.
//
// Spec grammar (`--faults SPEC`, control.setFaults(SPEC)):
//
//   SPEC    := RULE (';' RULE)*
//   RULE    := [SCOPE ':'] SETTING (',' SETTING)*
//   SCOPE   := [METHOD ' '] PATH        METHOD is GET, POST, … or *; PATH is a route template
//                                       ("/v1/brands/{id}" or "/v1/brands/:id"), or a prefix
//                                       ending in * ("/v1/*", "/files/*")
//   SETTING := KIND '=' PROBABILITY     probability 0-1 per request
//            | 'latency=' MS ['-' MS]   added real delay before the request is handled
//            | 'retry-after=' SECONDS   Retry-After of injected 429s (default 1)
//            | 'burst=' N               an injected 429 comes as a burst: the next N-1 requests
//                                       to the same route get the same 429 (default 1)
//
//   KIND    := reset-before   socket destroyed before the handler ran (nothing changed)
//            | 5xx            500/502/503 before the handler ran (502 has an HTML body)
//            | 429            429 TOO_MANY_REQUESTS with Retry-After
//            | 429-no-retry-after   429 without Retry-After
//            | reset-after    the handler ran (state changed), then the socket is destroyed
//            | 5xx-after      the handler ran, then 500 INTERNAL_ERROR is answered instead
//            | truncate       the handler ran; the body is cut short (Content-Length promised more)
//            | malformed      the handler ran; the 2xx body is not valid JSON
//
// Example: "5xx=0.1,latency=10-200;POST /v1/brands:reset-after=1". Every rule whose scope matches
// a request applies, in order; a later rule overrides a kind an earlier one set. Probabilities of
// one rule add up to at most 1. One draw of the seeded generator per request picks the fault.
import { Prng } from './prng.ts';

export const FAULT_KINDS = [
  'reset-before',
  '5xx',
  '429',
  '429-no-retry-after',
  'reset-after',
  '5xx-after',
  'truncate',
  'malformed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export const PRE_FAULTS: ReadonlySet<string> = new Set([
  'reset-before',
  '5xx',
  '429',
  '429-no-retry-after',
]);

export interface FaultSettings {
  probabilities: Partial<Record<FaultKind, number>>;
  latency?: [number, number];
  retryAfterS?: number;
  burst?: number;
}

export interface FaultRule {
  method: string; // upper case or *
  path: string; // normalised template, or prefix ending with *
  settings: FaultSettings;
}

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

const SCOPE_RE = /^\s*(?:([A-Za-z]+|\*)\s+)?(\/\S*?)\s*:(?=\s*[a-z0-9-]+\s*=)(.*)$/s;

export function parseFaultSpec(spec: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const [i, raw] of spec.split(';').entries()) {
    if (raw.trim() === '') continue;
    const where = `fault rule ${i + 1} ("${raw.trim()}")`;
    let method = '*';
    let path = '*';
    let body = raw;
    const m = SCOPE_RE.exec(raw);
    if (m) {
      method = (m[1] ?? '*').toUpperCase();
      path = normaliseTemplate(m[2] as string);
      body = m[3] as string;
    } else if (/^\s*([A-Za-z]+\s+)?\//.test(raw)) {
      throw new FaultSpecError(
        `${where}: a scope must be followed by ':' and settings, e.g. "POST /v1/brands:5xx=1"`,
      );
    }
    const settings: FaultSettings = { probabilities: {} };
    let sum = 0;
    for (const item of body.split(',')) {
      if (item.trim() === '') throw new FaultSpecError(`${where}: empty setting`);
      const eq = item.indexOf('=');
      if (eq < 0) throw new FaultSpecError(`${where}: "${item.trim()}" is not NAME=VALUE`);
      const name = item.slice(0, eq).trim().toLowerCase();
      const value = item.slice(eq + 1).trim();
      if (name === 'latency') {
        const lm = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(value);
        if (!lm)
          throw new FaultSpecError(`${where}: latency must be MS or MIN-MAX in ms, got "${value}"`);
        const lo = Number(lm[1]);
        const hi = lm[2] === undefined ? lo : Number(lm[2]);
        if (hi < lo) throw new FaultSpecError(`${where}: latency range ${lo}-${hi} is reversed`);
        settings.latency = [lo, hi];
      } else if (name === 'burst') {
        if (!/^[1-9]\d*$/.test(value))
          throw new FaultSpecError(
            `${where}: burst must be a whole number of requests ≥ 1, got "${value}"`,
          );
        settings.burst = Number(value);
      } else if (name === 'retry-after') {
        if (!/^\d+$/.test(value))
          throw new FaultSpecError(`${where}: retry-after must be whole seconds, got "${value}"`);
        settings.retryAfterS = Number(value);
      } else if ((FAULT_KINDS as readonly string[]).includes(name)) {
        const p = Number(value);
        if (value === '' || !Number.isFinite(p) || p < 0 || p > 1) {
          throw new FaultSpecError(
            `${where}: ${name} needs a probability from 0 to 1, got "${value}"`,
          );
        }
        settings.probabilities[name as FaultKind] = p;
        sum += p;
      } else {
        throw new FaultSpecError(
          `${where}: unknown setting "${name}"; known: ${FAULT_KINDS.join(', ')}, latency, retry-after, burst`,
        );
      }
    }
    if (sum > 1 + 1e-9)
      throw new FaultSpecError(`${where}: probabilities add up to ${sum}, more than 1`);
    rules.push({ method, path, settings });
  }
  return rules;
}

/** "/v1/brands/:id" and "/v1/brands/{id}" both become "/v1/brands/{id}". */
export function normaliseTemplate(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\/+$/, '') || '/';
}

export interface FaultDecision {
  kind: FaultKind | null;
  latencyMs: number;
  retryAfterS: number;
}

export class FaultInjector {
  #rules: FaultRule[] = [];
  #rng: Prng;
  #next: Array<{ method: string; path: string; kind: FaultKind; remaining: number }> = [];

  constructor(seed: number, spec?: string) {
    this.#rng = new Prng(seed ^ 0xfa017);
    if (spec) this.set(spec);
  }

  /** Replaces all rules (throws FaultSpecError with a clear message on a bad spec). */
  set(spec: string): void {
    this.#rules = parseFaultSpec(spec);
  }

  /** Adds rules after the existing ones. */
  add(spec: string): void {
    this.#rules.push(...parseFaultSpec(spec));
  }

  clear(): void {
    this.#rules = [];
    this.#next = [];
  }

  rules(): FaultRule[] {
    return this.#rules;
  }

  /** The next `count` requests matching the scope get this fault, before any random draw. */
  injectNext(scope: string, kind: FaultKind, count = 1): void {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new FaultSpecError(`unknown fault kind "${kind}"; known: ${FAULT_KINDS.join(', ')}`);
    }
    const m = /^\s*(?:([A-Za-z]+|\*)\s+)?(\/\S*|\*)\s*$/.exec(scope);
    if (!m)
      throw new FaultSpecError(`scope "${scope}" must be "[METHOD ]PATH", e.g. "POST /v1/brands"`);
    this.#next.push({
      method: (m[1] ?? '*').toUpperCase(),
      path: m[2] === '*' ? '*' : normaliseTemplate(m[2] as string),
      kind,
      remaining: count,
    });
  }

  decide(method: string, template: string | null, path: string): FaultDecision {
    const target = template ?? path;
    const forced = this.#next.find((n) => matches(n.method, n.path, method, target));
    let latencyMs = 0;
    let retryAfterS = 1;
    let burst = 1;
    const probabilities: Partial<Record<FaultKind, number>> = {};
    for (const rule of this.#rules) {
      if (!matches(rule.method, rule.path, method, target)) continue;
      Object.assign(probabilities, rule.settings.probabilities);
      if (rule.settings.latency) {
        const [lo, hi] = rule.settings.latency;
        latencyMs = lo + Math.floor(this.#rng.next() * (hi - lo + 1));
      }
      if (rule.settings.retryAfterS !== undefined) retryAfterS = rule.settings.retryAfterS;
      if (rule.settings.burst !== undefined) burst = rule.settings.burst;
    }
    if (forced) {
      forced.remaining--;
      if (forced.remaining <= 0) this.#next.splice(this.#next.indexOf(forced), 1);
      return { kind: forced.kind, latencyMs, retryAfterS };
    }
    let kind: FaultKind | null = null;
    if (Object.values(probabilities).some((p) => (p ?? 0) > 0)) {
      const u = this.#rng.next();
      let acc = 0;
      for (const k of FAULT_KINDS) {
        acc += probabilities[k] ?? 0;
        if (u < acc) {
          kind = k;
          break;
        }
      }
    }
    if ((kind === '429' || kind === '429-no-retry-after') && burst > 1) {
      this.#next.push({ method, path: target, kind, remaining: burst - 1 });
    }
    return { kind, latencyMs, retryAfterS };
  }

  /** A draw for choosing among 5xx statuses, from the same seeded sequence. */
  pick<T>(items: readonly T[]): T {
    return this.#rng.pick(items);
  }
}

function matches(ruleMethod: string, rulePath: string, method: string, target: string): boolean {
  if (ruleMethod !== '*' && ruleMethod !== method) return false;
  if (rulePath === '*') return true;
  if (rulePath.endsWith('*')) return target.startsWith(rulePath.slice(0, -1));
  return rulePath === target;
}
