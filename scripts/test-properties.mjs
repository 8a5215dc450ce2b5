// `npm run test:properties -- [--runs N] [--seed S|random] [files…]`: the property tests
// (test/**/*.property.test.ts) alone, long. `npm test` runs them too, each with its own small
// number of runs and the fixed seed of test/helpers/property.ts.
import { spawnSync } from 'node:child_process';
import { glob } from 'tinyglobby';

const USAGE = 'usage: npm run test:properties -- [--runs N] [--seed S|random] [files…]';

function parse(args) {
  const env = {};
  const files = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--runs' || arg === '--seed') {
      const value = args[i + 1];
      const valid =
        arg === '--runs' ? /^[1-9]\d*$/.test(value ?? '') : /^(-?\d+|random)$/.test(value ?? '');
      if (!valid)
        throw new Error(
          `${arg} needs ${arg === '--runs' ? 'a whole number' : 'a number or random'}; ${USAGE}`,
        );
      env[arg === '--runs' ? 'PROPERTY_RUNS' : 'PROPERTY_SEED'] = value;
      i += 1;
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}; ${USAGE}`);
    } else {
      files.push(arg);
    }
  }
  return { env, files };
}

let options;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const files = options.files.length
  ? options.files
  : (await glob('test/**/*.property.test.ts', { ignore: ['node_modules/**'] })).sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=0', ...files],
  { stdio: 'inherit', env: { ...process.env, ...options.env } },
);
process.exit(result.status ?? 1);
