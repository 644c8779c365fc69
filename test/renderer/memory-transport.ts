// The renderer's boundary, in memory: a BridgeTransport whose channels answer from handlers
// the test gives, and whose event stream the test drives (events, drops and returns). The
// state classes above it are the real ones.
import type {
  ChannelName,
  FileRef,
  Input,
  NumberedEvent,
  Output,
  Result,
} from '../../contract/index.ts';
import type { BridgeTransport } from '../../renderer/src/lib/bridge/transport.ts';

type Handler<N extends ChannelName> = (
  input: Input<N>,
) => Result<Output<N>> | Promise<Result<Output<N>>>;
type Subscriber = {
  onEvent: (event: NumberedEvent) => void;
  onState?: (connected: boolean) => void;
};

export class MemoryTransport implements BridgeTransport {
  readonly host = 'browser' as const;
  readonly calls: { name: ChannelName; input: unknown }[] = [];
  readonly #handlers = new Map<ChannelName, Handler<ChannelName>>();
  readonly #subscribers = new Set<Subscriber>();
  #seq = 0;

  answer<N extends ChannelName>(name: N, handler: Handler<N>): this {
    this.#handlers.set(name, handler as unknown as Handler<ChannelName>);
    return this;
  }

  async call<N extends ChannelName>(name: N, input: Input<N>): Promise<Result<Output<N>>> {
    this.calls.push({ name, input });
    const handler = this.#handlers.get(name) as Handler<N> | undefined;
    if (handler === undefined) {
      return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: name, retryable: false } };
    }
    return handler(input);
  }

  callsOf(name: ChannelName): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.input);
  }

  subscribe(
    onEvent: (event: NumberedEvent) => void,
    onState?: (connected: boolean) => void,
  ): () => void {
    const subscriber = { onEvent, ...(onState ? { onState } : {}) };
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }

  /** Pushes an event, numbered as the engine numbers them. */
  emit(
    event: NumberedEvent extends infer E
      ? E extends unknown
        ? Omit<E, 'seq' | 'at'>
        : never
      : never,
  ): void {
    const numbered = { ...event, seq: ++this.#seq, at: new Date().toISOString() } as NumberedEvent;
    for (const s of this.#subscribers) s.onEvent(numbered);
  }

  /** The stream goes live (true) or drops (false). */
  connection(connected: boolean): void {
    for (const s of this.#subscribers) s.onState?.(connected);
  }

  fileUrl(ref: FileRef): string {
    return `/files/${ref.area}/${ref.brandId}/${ref.path}`;
  }
}

export function refused(
  code: string,
  message: string,
): { ok: false; error: { code: string; message: string; retryable: boolean } } {
  return { ok: false, error: { code, message, retryable: false } };
}
