// One owner for a terminal shared by log lines and progress bars. The bars live on their own lines at the
// bottom; a log line is written above them: the bars are erased (cursor up over them, clear to the end of the
// screen), the line is written, the bars are drawn again below it. Nothing else writes to the stream while
// bars are shown, so no log line is ever written onto a bar's line, and no bar over a log line.

const ESC = '\x1b[';

interface TerminalStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class Terminal {
  /** Live lines (bars), in the order they appeared. */
  private readonly live = new Map<string, string>();
  /** How many live lines are on the screen now, under the cursor's line. */
  private drawn = 0;

  constructor(private readonly stream: TerminalStream) {}

  get isTTY(): boolean {
    return this.stream.isTTY === true;
  }

  private get width(): number {
    return Math.max(20, (this.stream.columns || 80) - 1);
  }

  /** Text that goes above the live lines (a log line): written whole, the bars redrawn after it. */
  write(text: string): void {
    if (this.drawn === 0) {
      this.stream.write(text);
      return;
    }
    this.stream.write(this.erase() + text + this.render());
  }

  /** Shows or updates a live line. */
  set(id: string, line: string): void {
    this.live.set(id, line);
    this.redraw();
  }

  /** Removes a live line, leaving `final` (if given) on the screen above the remaining ones for good. */
  remove(id: string, final?: string): void {
    if (!this.live.delete(id) && final === undefined) return;
    const out = this.erase() + (final === undefined ? '' : `${this.fit(final)}\n`) + this.render();
    this.stream.write(out);
  }

  private redraw(): void {
    this.stream.write(this.erase() + this.render());
  }

  /** Back to the first live line's start and clear to the end of the screen. */
  private erase(): string {
    const up = this.drawn > 0 ? `${ESC}${this.drawn}A` : '';
    this.drawn = 0;
    return `${up}\r${ESC}J`;
  }

  /** The live lines, each ending with a newline, so the cursor rests on the line below them. */
  private render(): string {
    const lines = [...this.live.values()].map((l) => `${this.fit(l)}\n`);
    this.drawn = lines.length;
    return lines.join('');
  }

  /** A live line never wraps: a wrapped line would be two screen lines and the cursor arithmetic would drift. */
  private fit(line: string): string {
    return line.length > this.width ? line.slice(0, this.width) : line;
  }
}

let shared: Terminal | undefined;

/** The process's standard error as a terminal (one owner for logs and bars alike). */
export function stderrTerminal(): Terminal {
  shared ??= new Terminal(process.stderr);
  return shared;
}
