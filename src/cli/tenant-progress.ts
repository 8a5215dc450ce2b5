// Progress of `scan run --tenants` on stderr: one line per tenant state change (its scan
// triggered, a new status, its end), never a line per poll, so fifty tenants stay readable in a log.

import { displayLine } from '../client/index.js';
import type { JobReporter, TenantOutcome } from '../pipeline/index.js';
import type { ProgressSink } from './progress.js';
import { retryLine } from './progress.js';

export class TenantProgress {
  private ended = 0;

  constructor(
    private readonly sink: ProgressSink,
    private readonly total: number,
    private readonly debug: boolean,
  ) {}

  reporterFor(name: string): JobReporter {
    let status: string | undefined;
    const say = (message: string) => this.line(`${name}: ${message}`);
    return {
      info: (message) => (this.debug ? say(message) : undefined),
      warning: (message) => say(`warning: ${message}`),
      debug: (message) => (this.debug ? say(`debug: ${message}`) : undefined),
      scanTriggered: (scanId) => say(`scan ${scanId} triggered`),
      progress: (scan) => {
        if (scan.status === status) return;
        status = scan.status;
        say(`scan ${scan.id} ${scan.status}`);
      },
      scanSettled: () => undefined,
      // A 429 storm is not a state change: only shown when debugging.
      retrying: (event) => (this.debug ? say(retryLine(event)) : undefined),
    };
  }

  finished(outcome: TenantOutcome): void {
    this.ended += 1;
    const count = `[${this.ended}/${this.total}]`;
    if (outcome.verdict) {
      const findings = `${outcome.failed} failed finding${outcome.failed === 1 ? '' : 's'}`;
      this.line(`${outcome.name}: ${outcome.verdict} (${findings}) ${count}`);
    } else {
      this.line(`${outcome.name}: error: ${outcome.error ?? 'no verdict'} ${count}`);
    }
  }

  line(message: string): void {
    this.sink.write(`${displayLine(message)}\n`);
  }
}
