// Bad settings: each problem one line that says what to fix, all reported at once, before any
// request.

import { JobUserError } from './errors.js';

/** Bad settings: one line per problem, all reported at once, before any request. */
export class SettingsError extends JobUserError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('Sanity checks', problems.join('; '));
    this.problems = problems;
  }
  /** Each problem as its own full line ("Sanity checks failed: …"). */
  lines(): string[] {
    return this.problems.map((problem) => `Sanity checks failed: ${problem}`);
  }
}

/** Thrown by one parse helper; collected by `SettingsProblems`. */
export class SettingProblem extends Error {}

/** Collects the problems of several inputs so the user sees all of them in one run. */
export class SettingsProblems {
  readonly problems: string[] = [];

  /** Runs one parse; on a SettingProblem records it and returns the fallback. */
  check<T>(parse: () => T, fallback: T): T {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof SettingProblem)) throw error;
      this.problems.push(error.message);
      return fallback;
    }
  }

  add(problem: string): void {
    this.problems.push(problem);
  }

  throwIfAny(): void {
    if (this.problems.length > 0) throw new SettingsError([...this.problems]);
  }
}
