// The baseline of the roll-up benchmark: the least any roll-up must do — read every record file
// given and parse it as JSON — with nothing kept.
import { readFile } from 'node:fs/promises';

let findings = 0;
for (const path of process.argv.slice(2)) {
  findings += JSON.parse(await readFile(path, 'utf8')).findings.length;
}
console.log(findings);
