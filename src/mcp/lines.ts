/**
 * The MCP input split into lines (one JSON-RPC message each), with a cap on a
 * line's size: the bytes of a line over it are dropped as they arrive, so a
 * 200 MB line costs no more memory than the cap, and is answered at once.
 */

/** A line over the cap: reported once, when it passes the cap. */
export const OVERSIZED = Symbol('oversized');

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;

  constructor(readonly maxBytes: number) {}

  /** The lines `chunk` completes (OVERSIZED for one that passed the cap), in order. */
  push(chunk: Buffer): Array<string | typeof OVERSIZED> {
    const out: Array<string | typeof OVERSIZED> = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
      if (!this.dropping && this.size + piece.length > this.maxBytes) {
        this.dropping = true;
        this.parts = [];
        out.push(OVERSIZED);
      } else if (!this.dropping && piece.length) {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl < 0) return out;
      if (!this.dropping) out.push(this.take());
      this.reset();
      start = nl + 1;
    }
  }

  /** A last line without a newline at the end of the input, if any. */
  end(): string | null {
    const last = this.dropping ? null : this.take();
    this.reset();
    return last;
  }

  private take(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
    this.dropping = false;
  }
}
