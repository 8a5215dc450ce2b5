// Every command of the CLI, in the order --help lists them.

import type { CommandSpec } from '../command.js';
import { EAS_COMMANDS } from './eas.js';
import { KEY_COMMANDS } from './keys.js';
import { POSTURE_COMMANDS } from './posture.js';
import { REPORT_COMMANDS } from './report.js';
import { ROLLUP } from './rollup.js';
import { SCAN_RUN } from './scan-run.js';
import { SCAN_COMMANDS } from './scan.js';
import { TENANT_COMMANDS } from './tenant.js';
import { TENANT_SETTINGS_COMMANDS } from './tenant-settings.js';

export const COMMANDS: CommandSpec[] = [
  ...TENANT_COMMANDS,
  ...TENANT_SETTINGS_COMMANDS,
  SCAN_RUN,
  ...SCAN_COMMANDS,
  ...REPORT_COMMANDS,
  ...EAS_COMMANDS,
  ...POSTURE_COMMANDS,
  ...KEY_COMMANDS,
  ROLLUP,
];
