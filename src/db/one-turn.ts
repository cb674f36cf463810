// Reads that arrive in one turn of the event loop, sent to the database as one. Under load a worker takes up
// several requests per turn (about ten at 20 connections on two cores), and each sent its own statement: a round
// trip, a statement and a wake-up of the database each. Here the first read of a turn schedules the statement
// (setImmediate: after every request the turn's I/O brought in has reached its read) and the rest join it.
//
// Why the answers stay exact: each read is still sent after its request arrived, and the database takes the
// statement's snapshot when the statement runs, so a read sees every change committed before its request came;
// nothing is kept from one turn to the next. Each read keeps its own values (clock, day, tenant).
// Used by the session's read (src/http/session-store.ts).

export interface OneTurnOptions {
  /** At most this many reads go out in one statement; more in the same turn make another. */
  most?: number;
  /**
   * Whether a failure of a statement for several reads is one read's fault (a value the database refuses): the
   * statement is then sent again for each read alone, so one request's fault is no other's. Any other failure
   * (the database unreachable) is every read's.
   */
  oneReadsFault?: (err: unknown) => boolean;
}

export class OneTurn<V, R> {
  private waiting: { values: V; resolve: (answer: R) => void; reject: (err: unknown) => void }[] = [];
  private readonly most: number;

  /** `readAll` answers a turn's reads in the order given: one answer per read. */
  constructor(
    private readonly readAll: (batch: V[]) => Promise<R[]>,
    private readonly options: OneTurnOptions = {},
  ) {
    this.most = options.most ?? Infinity;
    // Zero, a negative or a fractional count would never send every read.
    if (!(this.most >= 1) || (this.most !== Infinity && !Number.isInteger(this.most))) throw new RangeError(`OneTurn: most must be a whole number of at least 1, not ${options.most}`);
  }

  read(values: V): Promise<R> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ values, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.waiting;
    this.waiting = [];
    for (let i = 0; i < all.length; i += this.most) this.send(all.slice(i, i + this.most));
  }

  private send(part: typeof this.waiting): void {
    this.readAll(part.map((w) => w.values)).then(
      (answers) => part.forEach((w, n) => w.resolve(answers[n])),
      (err) => {
        if (part.length > 1 && this.options.oneReadsFault?.(err)) part.forEach((w) => this.send([w]));
        else part.forEach((w) => w.reject(err));
      },
    );
  }
}

/** SQLSTATE class 22, data exception: the database refused a value (a NUL in text, a malformed date). */
export function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
