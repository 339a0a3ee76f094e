import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// src/spec is what input, api, warehouse and pipeline share: it must depend on none of them, nor on the
// sandbox (which keeps its own reading of the spec so that the tests compare two).
describe('src/spec imports nothing from the layers above it', () => {
  const dir = 'src/spec';
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('has the identifiers module', () => {
    expect(files).toContain('identifiers.ts');
  });

  it.each(files)('%s', (file) => {
    const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]);
    for (const spec of imports) {
      // Only siblings in src/spec and Node's own modules.
      expect(spec, `${file} imports ${spec}`).toMatch(/^(\.\/[\w.-]+\.js|node:[\w/]+)$/);
    }
  });
});
