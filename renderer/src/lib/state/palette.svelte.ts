// The command palette's state: open or not, the words typed, and the engine's answer for them
// (the `search` query, from the local mirror: offline). Every keystroke asks; an answer that
// arrives after a newer question is dropped, so the list never shows older words' results.
import type { BridgeError, SearchDoc } from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';

export class PaletteState {
  open = $state(false);
  text = $state('');
  result = $state.raw<SearchDoc | null>(null);
  error = $state.raw<BridgeError | null>(null);
  /** The words the shown result answers (tests and the live region wait on it). */
  answered = $state<string | null>(null);
  #generation = 0;
  #pending: Promise<void> = Promise.resolve();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  show(): void {
    this.open = true;
  }

  hide(): void {
    this.open = false;
  }

  /** Closed, it starts afresh next time: no stale words in a new search. */
  reset(): void {
    this.#generation++;
    this.text = '';
    this.result = null;
    this.error = null;
    this.answered = null;
  }

  /** Whether the shown result answers the words as they are now. */
  get current(): boolean {
    return this.answered === this.text;
  }

  /** Resolves once the last question is answered. */
  settled(): Promise<void> {
    return this.#pending;
  }

  search(text: string): Promise<void> {
    this.#pending = this.#ask(text);
    return this.#pending;
  }

  async #ask(text: string): Promise<void> {
    this.text = text;
    const generation = ++this.#generation;
    if (text.trim() === '') {
      this.result = null;
      this.error = null;
      this.answered = text;
      return;
    }
    const result = await this.#bridge.call('search', { text: text.slice(0, 200) });
    if (generation !== this.#generation) return;
    if (result.ok) {
      this.result = result.data;
      this.error = null;
    } else {
      this.error = result.error;
    }
    this.answered = text;
  }
}
