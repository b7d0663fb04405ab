/**
 * Changes that caches must hear about. Admin commands, book creation and catalog imports emit them;
 * the page, search answer, destination, API key and access-code caches listen. With a relay attached (Redis pub/sub when `REDIS_URL` is set), every
 * change emitted here is also delivered to the other instances, so an edit made on one instance is
 * never served stale by another.
 */
export interface ChangeMap {
  'book-changed': [slug: string];
  /** Offers of the book at this slug arrived (issue 47): its pages change, its search answers do not. */
  'offers-changed': [slug: string];
  /** Books or catalog entries were added (a book created, an import finished): search answers change. */
  'catalog-changed': [];
  'destinations-changed': [];
  'api-keys-changed': [];
  'access-codes-changed': [];
  /** The operator's brand (name, logo, accent, texts) changed: every page shows it. */
  'brand-changed': [];
}

export type ChangeName = keyof ChangeMap;

/** One change as it travels between instances. */
export type Change = { [K in ChangeName]: { name: K; args: ChangeMap[K] } }[ChangeName];

const CHANGE_NAMES: ReadonlySet<string> = new Set<ChangeName>([
  'book-changed',
  'offers-changed',
  'catalog-changed',
  'destinations-changed',
  'api-keys-changed',
  'access-codes-changed',
  'brand-changed',
]);

type Listener<K extends ChangeName> = (...args: ChangeMap[K]) => void;

export class ChangeEvents {
  private readonly listeners = new Map<ChangeName, Set<(...args: string[]) => void>>();
  private relay: ((change: Change) => void) | null = null;

  on<K extends ChangeName>(name: K, listener: Listener<K>): this {
    const set = this.listeners.get(name) ?? new Set();
    set.add(listener as (...args: string[]) => void);
    this.listeners.set(name, set);
    return this;
  }

  /** Delivers the change here and, through the relay, to every other instance. */
  emit<K extends ChangeName>(name: K, ...args: ChangeMap[K]): void {
    this.deliver(name, args);
    this.relay?.({ name, args } as Change);
  }

  /** A change that another instance made: delivered here only (it was relayed already). */
  receive(change: Change): void {
    this.deliver(change.name, change.args);
  }

  /** Everything cached may be stale (the relay was down): drop it all here. */
  receiveEverything(): void {
    this.deliver('catalog-changed', []);
    this.deliver('destinations-changed', []);
    this.deliver('api-keys-changed', []);
    this.deliver('access-codes-changed', []);
    this.deliver('brand-changed', []);
  }

  setRelay(relay: ((change: Change) => void) | null): void {
    this.relay = relay;
  }

  private deliver(name: ChangeName, args: readonly string[]): void {
    for (const listener of this.listeners.get(name) ?? []) listener(...args);
  }
}

/** A relayed message's change, or null when it is not one (another version, a stray publisher). */
export function parseChange(value: unknown): Change | null {
  if (typeof value !== 'object' || value === null) return null;
  const { name, args } = value as { name?: unknown; args?: unknown };
  if (typeof name !== 'string' || !CHANGE_NAMES.has(name)) return null;
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) return null;
  if (name === 'book-changed' || name === 'offers-changed') {
    const [slug] = args;
    return args.length === 1 && typeof slug === 'string' ? { name, args: [slug] } : null;
  }
  return args.length === 0 ? ({ name, args: [] } as Change) : null;
}
