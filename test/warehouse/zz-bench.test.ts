import { test } from 'vitest';
import { benchLoad } from '../../src/warehouse/bench-load.js';
test('bench', async () => {
  for (const bs of [1000]) console.log(JSON.stringify(await benchLoad(4000, undefined, { batchSize: bs }), null, 1));
}, 300000);
