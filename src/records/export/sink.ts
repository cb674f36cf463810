// Where an export goes (the HTTP response, or any writable stream in tests), with what every writer needs of
// it: waiting while the client is slower than the export (so rows never pile up in memory), stopping quietly
// when the client has gone, and flushing the compressing encoder so what is written reaches the client.
import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';

/** The compression middleware adds `flush()` to a response it compresses. */
export type ExportOutput = Writable & { flush?: () => void };

export class Sink {
  private wake: (() => void) | null = null;

  constructor(readonly out: ExportOutput) {
    // One listener each for the whole export (the compression middleware hands `drain` listeners to its
    // encoder, where `once` would never remove them), waking whoever waits for the output to take more.
    const awake = () => {
      this.wake?.();
      this.wake = null;
    };
    out.on('drain', awake).on('close', awake);
  }

  /** The client has gone away (or the output was cut): there is nothing more to do. */
  get gone(): boolean {
    return this.out.destroyed;
  }

  /** Sends a piece; false when the client has gone away. */
  async write(data: string | Buffer): Promise<boolean> {
    if (!this.out.write(data) && !this.gone) await this.drained();
    if (this.gone) return false;
    this.flush();
    return true;
  }

  /**
   * A compressing encoder holds its output until its buffers fill (Brotli: the whole of a small export);
   * flushing after each piece lets it reach the client at once.
   */
  flush(): void {
    if (typeof this.out.flush === 'function') this.out.flush();
  }

  /** The next `drain` or `close` of the output. */
  private drained(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /**
   * Waits until `ready()` (a writer's own stream in front of the output has taken what it was given): on the
   * output's `drain` while the output is full, else on `drain` of `feeder` (the stream that holds the backlog),
   * else on the next turn of the event loop. False when the client has gone away meanwhile.
   */
  async until(ready: () => boolean, feeder?: EventEmitter): Promise<boolean> {
    while (!this.gone && !ready()) {
      if (this.out.writableNeedDrain) await this.drained();
      else if (feeder) await this.either(feeder);
      else await new Promise((resolve) => setImmediate(resolve));
    }
    return !this.gone;
  }

  /** `drain` of the feeder, or the output closing (a feeder whose reader has gone never drains). */
  private either(feeder: EventEmitter): Promise<void> {
    return this.eventOrClose(feeder, 'drain');
  }

  /** The first `event` of `emitter`, or the output closing, whichever comes first; no listener is left behind. */
  private eventOrClose(emitter: EventEmitter, event: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        emitter.off(event, done);
        this.out.off('close', done);
        resolve();
      };
      emitter.once(event, done);
      this.out.once('close', done);
    });
  }

  /**
   * Resolves once `source` (a writer's document or zip, about to be piped into the output) has handed on its
   * first bytes, or the client has gone. A writer waits for this before it reads rows, so that a failure
   * while reading always comes after the first byte (the connection is cut) and never looks like a whole file.
   * Call it before piping, so the first bytes cannot pass unseen.
   */
  firstBytesOf(source: EventEmitter): Promise<void> {
    return this.eventOrClose(source, 'data');
  }

  /** Ends the output (unless a writer's pipe does) and waits until it has all gone out, or the client has. */
  async end(alreadyEnding = false): Promise<void> {
    if (this.gone || this.out.writableFinished) return;
    const over = new Promise<void>((resolve) => {
      this.out.once('finish', resolve);
      this.out.once('close', resolve);
    });
    if (!alreadyEnding) this.out.end();
    await over;
  }
}
