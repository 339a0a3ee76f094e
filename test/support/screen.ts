// A small terminal screen for tests: enough of a VT100 to replay what the CLI writes to a terminal (text, CR, LF,
// cursor up, clear to end of line or screen; colours ignored) and read back the rows a person would see,
// scrollback included.

export class Screen {
  readonly rows: string[] = [''];
  private row = 0;
  private col = 0;

  write(data: string): void {
    for (let i = 0; i < data.length; i++) {
      const c = data[i];
      if (c === '\x1b' && data[i + 1] === '[') {
        const m = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(data.slice(i));
        if (!m) continue;
        i += m[0].length - 1;
        const n = Number(m[1] || '1');
        if (m[2] === 'A') this.row = Math.max(0, this.row - n);
        else if (m[2] === 'B') this.down(n);
        else if (m[2] === 'K') this.rows[this.row] = this.rows[this.row].slice(0, this.col);
        else if (m[2] === 'J') { this.rows[this.row] = this.rows[this.row].slice(0, this.col); this.rows.length = this.row + 1; }
        else if (m[2] === 'G') this.col = n - 1;
        continue;
      }
      if (c === '\r') { this.col = 0; continue; }
      if (c === '\n') { this.down(1); this.col = 0; continue; }
      if (c < ' ' && c !== '\t') continue;
      const line = this.rows[this.row].padEnd(this.col, ' ');
      this.rows[this.row] = line.slice(0, this.col) + c + line.slice(this.col + 1);
      this.col++;
    }
  }

  private down(n: number): void {
    this.row += n;
    while (this.rows.length <= this.row) this.rows.push('');
  }

  /** The rows with text, as a person would read them. */
  text(): string[] {
    return this.rows.map((r) => r.trimEnd()).filter((r) => r !== '');
  }
}
