// The log the CLI gives the pipeline (the gate, a notification): each message one line of its
// output, a warning marked `warning: ` (a terminal has no annotations, unlike the Action's log).

export interface LineLog {
  info(message: string): void;
  warning(message: string): void;
}

/** Info as it is, a warning prefixed `warning: `, both through `say` (one line each). */
export function lineLog(say: (line: string) => void): LineLog {
  return { info: (message) => say(message), warning: (message) => say(`warning: ${message}`) };
}
