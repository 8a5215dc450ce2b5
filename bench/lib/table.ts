// The benchmark's verdict table: each measured value beside its target.

export interface Row {
  area: string;
  measure: string;
  value: string;
  target: string;
  /** undefined: informational, no target. */
  met?: boolean;
}

export function markdownTable(rows: Row[]): string {
  const lines = ['| Area | Measure | Value | Target | Met |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const met = r.met === undefined ? '' : r.met ? 'yes' : '**NO**';
    lines.push(`| ${r.area} | ${r.measure} | ${r.value} | ${r.target} | ${met} |`);
  }
  return lines.join('\n');
}

export const ms = (value: number): string => `${Math.round(value)} ms`;
export const seconds = (valueMs: number): string => `${(valueMs / 1000).toFixed(2)} s`;
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
export const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
