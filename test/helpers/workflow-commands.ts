// Parsers for what an action step leaves behind, read the way the GitHub runner reads it:
// file commands (GITHUB_OUTPUT / GITHUB_STATE / GITHUB_ENV) and `::command::` lines in the log.

/**
 * Parses a file command file (`GITHUB_OUTPUT`, `GITHUB_STATE`, `GITHUB_ENV`): entries are
 * `name=value` or the multi-line form `name<<DELIMITER\n…\nDELIMITER`. Later entries win, as on the
 * runner. Throws on a heredoc without its closing delimiter (the runner fails the step then).
 */
export function parseFileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const heredoc = /^([^=]+?)<<(.+)$/.exec(line);
    const equals = line.indexOf('=');
    if (heredoc && (equals === -1 || equals > line.indexOf('<<'))) {
      const [, name = '', delimiter = ''] = heredoc;
      const end = lines.indexOf(delimiter, i + 1);
      if (end === -1) throw new Error(`file command: no closing delimiter for '${name}'`);
      values[name] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (equals > 0) {
      values[line.slice(0, equals)] = line.slice(equals + 1);
    } else {
      throw new Error(`file command: malformed line ${JSON.stringify(line)}`);
    }
  }
  return values;
}

/** One `::name k=v,…::message` workflow command found in the log. */
export interface WorkflowCommand {
  name: string;
  properties: Record<string, string>;
  message: string;
  stream: 'stdout' | 'stderr';
}

function unescapeData(value: string): string {
  return value.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(value: string): string {
  return value
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

function parseCommandLine(line: string): Omit<WorkflowCommand, 'stream'> | undefined {
  const match = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line.trimStart());
  if (!match) return undefined;
  const [, name = '', rawProperties = '', rawMessage = ''] = match;
  const properties: Record<string, string> = {};
  for (const pair of rawProperties.split(',')) {
    const eq = pair.indexOf('=');
    if (eq > 0) properties[pair.slice(0, eq).trim()] = unescapeProperty(pair.slice(eq + 1));
  }
  return { name: name.toLowerCase(), properties, message: unescapeData(rawMessage) };
}

/**
 * Finds the workflow commands in a log, honouring `::stop-commands::TOKEN` … `::TOKEN::` (lines in
 * between are not commands, as on the runner).
 */
export function parseWorkflowCommands(
  text: string,
  stream: 'stdout' | 'stderr' = 'stdout',
): WorkflowCommand[] {
  const commands: WorkflowCommand[] = [];
  let stopToken: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (stopToken !== undefined) {
      if (line.trim() === `::${stopToken}::`) stopToken = undefined;
      continue;
    }
    const command = parseCommandLine(line);
    if (!command) continue;
    if (command.name === 'stop-commands') {
      stopToken = command.message;
      continue;
    }
    commands.push({ ...command, stream });
  }
  return commands;
}

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** An annotation command (`::error`, `::warning`, `::notice`) as the runner would record it. */
export interface Annotation {
  level: AnnotationLevel;
  message: string;
  title?: string;
  file?: string;
  line?: number;
  endLine?: number;
  col?: number;
  endColumn?: number;
  /**
   * True when this annotation is beyond the runner's cap of 10 per level per step: it stays in the
   * log but is not shown as an annotation.
   */
  overStepCap: boolean;
  /** True when the message exceeds the 4,096 characters the runner keeps (it cuts the rest). */
  overMessageLimit: boolean;
}

export const ANNOTATIONS_PER_LEVEL_PER_STEP = 10;
export const ANNOTATION_MESSAGE_LIMIT = 4096;

const LEVELS = new Set<string>(['error', 'warning', 'notice']);

function optionalNumber(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** Turns annotation commands (in log order) into annotations, flagging those over the step cap. */
export function toAnnotations(commands: WorkflowCommand[]): Annotation[] {
  const perLevel = new Map<string, number>();
  return commands
    .filter((c) => LEVELS.has(c.name))
    .map((c) => {
      const count = (perLevel.get(c.name) ?? 0) + 1;
      perLevel.set(c.name, count);
      const p = c.properties;
      const annotation: Annotation = {
        level: c.name as AnnotationLevel,
        message: c.message,
        overStepCap: count > ANNOTATIONS_PER_LEVEL_PER_STEP,
        overMessageLimit: c.message.length > ANNOTATION_MESSAGE_LIMIT,
      };
      if (p.title !== undefined) annotation.title = p.title;
      if (p.file !== undefined) annotation.file = p.file;
      const line = optionalNumber(p.line);
      if (line !== undefined) annotation.line = line;
      const endLine = optionalNumber(p.endLine);
      if (endLine !== undefined) annotation.endLine = endLine;
      const col = optionalNumber(p.col);
      if (col !== undefined) annotation.col = col;
      const endColumn = optionalNumber(p.endColumn);
      if (endColumn !== undefined) annotation.endColumn = endColumn;
      return annotation;
    });
}
