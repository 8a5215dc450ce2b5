// Result writers shared by the Action and the CLI.
export { toJunitXml } from './junit.js';
export { toSarif, levelFromSeverity, type SarifLog } from './sarif.js';
export { resultKind, type ResultsInput, type ResultKind } from './types.js';
