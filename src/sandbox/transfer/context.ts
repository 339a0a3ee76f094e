// Everything the transfer routes share in one sandbox: the catalogue's state, the content, the signing secret,
// the fault switches and the clock.

import { randomBytes } from 'node:crypto';
import { DEFAULT_DIALECT, DIALECTS, type Dialect } from '../dialect.js';
import { buildCatalogue, type CatalogueOptions } from './catalogue.js';
import { TransferContent } from './content.js';
import { TransferFaultState, type TransferFaults } from './faults.js';
import { generatedFlatSource, type FlatSource } from './flat-source.js';
import { TransferStore } from './store.js';

export interface TransferSandboxOptions {
  /** Seed of the catalogue and of the generated rows. Default 1. */
  seed?: number;
  /** Count, sizes and extra files of the catalogue (see CatalogueOptions). Default 12 files, 4 KiB to 3 MiB. */
  catalogue?: Omit<CatalogueOptions, 'seed'>;
  /** Fault switches. Default none. */
  faults?: TransferFaults;
  /** Lifetime of a download address, in ms. Default 300 000 (5 minutes, REFERENCE.md). */
  urlValidityMs?: number;
  /** Key of the download signatures. Default: 32 random bytes per sandbox. */
  secret?: Buffer;
  /** Clock, epoch ms. Default Date.now. */
  now?: () => number;
  /** Where the rows come from. Default the transfer files' own generator. */
  source?: FlatSource;
  /** Label of `source` in the parquet cache's file names. Default `gen<seed>`. */
  sourceId?: string;
  /** Parquet cache folder. Default `<os.tmpdir()>/lawsuit-etl-transfer-cache`. */
  cacheDir?: string;
  /** Base of the download addresses, e.g. `http://127.0.0.1:8080`. Default: taken from the request's Host. */
  publicBaseUrl?: string;
  /** The dialect of records, statuses and errors (the sandbox passes its own). Default DEFAULT_DIALECT's. */
  dialect?: Dialect;
}

export interface TransferContext {
  store: TransferStore;
  content: TransferContent;
  faults: TransferFaultState;
  secret: Buffer;
  now: () => number;
  urlValidityMs: number;
  publicBaseUrl?: string;
  dialect: Dialect;
}

export function createTransferContext(opts: TransferSandboxOptions = {}): TransferContext {
  const seed = opts.seed ?? 1;
  const now = opts.now ?? Date.now;
  const content = new TransferContent(opts.source ?? generatedFlatSource(seed), { sourceId: opts.sourceId ?? `gen${seed}`, cacheDir: opts.cacheDir });
  const faults = new TransferFaultState(opts.faults);
  return {
    store: new TransferStore(buildCatalogue({ seed, ...opts.catalogue }), content, now),
    content,
    faults,
    secret: opts.secret ?? randomBytes(32),
    now,
    urlValidityMs: opts.faults?.expireFastMs ?? opts.urlValidityMs ?? 300_000,
    publicBaseUrl: opts.publicBaseUrl,
    dialect: opts.dialect ?? DIALECTS[DEFAULT_DIALECT],
  };
}
