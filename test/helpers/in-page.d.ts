// The types of in-page.js: functions that run inside a report page.

export interface MadeOfPage {
  images: number;
  scripts: number;
  links: Array<string | null>;
  handlers: number;
  pwned: unknown;
  heading: string;
  text: string;
}

export function pressed(selector: string): boolean;
export function rowCount(): number;
export function lastRowIndex(): string | null;
export function hash(): string;
export function madeOfPage(): MadeOfPage;
export function foreignCodeRuns(): Promise<{ script: boolean; style: boolean }>;
export function centerOf(node: unknown): Promise<{ x: number; y: number }>;
export function clickToDrawn(selector: string): Promise<number>;
