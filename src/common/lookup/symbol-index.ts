/** Marks a folded spelling shared by two listed symbols: it can only be resolved by its exact spelling. */
const AMBIGUOUS = Symbol('ambiguous');

/**
 * The listed symbols of one catalogue (coins, assets, tickers), looked up the way clients type them:
 * exactly first, then ignoring case, always answering the canonical spelling ('btc' → 'BTC',
 * 'XYZ:tsla' → 'xyz:TSLA'). A spelling that folds onto two listed symbols ('kpepe' for 'kPEPE' and
 * 'KPEPE') resolves to neither, since guessing would answer for the wrong market.
 */
export class SymbolIndex {
  private readonly exact: ReadonlySet<string>;
  private readonly folded = new Map<string, string | typeof AMBIGUOUS>();

  constructor(canonical: Iterable<string>) {
    this.exact = new Set(canonical);
    for (const symbol of this.exact) {
      const key = symbol.toLowerCase();
      this.folded.set(key, this.folded.has(key) ? AMBIGUOUS : symbol);
    }
  }

  /** Whether this exact spelling is listed. */
  has(symbol: string): boolean {
    return this.exact.has(symbol);
  }

  /** The canonical spelling of `input`, or undefined when it is unlisted or ambiguous (see isAmbiguous). */
  resolve(input: string): string | undefined {
    if (this.exact.has(input)) return input;
    const match = this.folded.get(input.toLowerCase());
    return match === AMBIGUOUS ? undefined : match;
  }

  /** Whether `input` is unresolved only because it matches several listed symbols once case is ignored. */
  isAmbiguous(input: string): boolean {
    return !this.exact.has(input) && this.folded.get(input.toLowerCase()) === AMBIGUOUS;
  }
}
