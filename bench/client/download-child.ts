// The client of this checkout, downloading once (download-once.ts).
import { createClient } from '../../src/client/index.js';
import { downloadOnce } from './download-once.js';

await downloadOnce(createClient);
process.exit();
