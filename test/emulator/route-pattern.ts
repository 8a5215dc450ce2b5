// "METHOD /path/:param" patterns, shared by the router and fault rules.

export interface Pattern {
  method: string;
  segments: string[];
  any: boolean;
}

export function parsePattern(route: string): Pattern {
  const trimmed = route.trim();
  if (trimmed === '*') return { method: '*', segments: [], any: true };
  const space = trimmed.indexOf(' ');
  const method = space < 0 ? '*' : trimmed.slice(0, space).toUpperCase();
  const path = space < 0 ? trimmed : trimmed.slice(space + 1).trim();
  return { method, segments: splitPath(path), any: path === '*' };
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** Params if the pattern matches; a trailing "*" segment matches the rest of the path. */
export function matchPattern(
  pattern: Pattern,
  method: string,
  segments: string[],
): Record<string, string> | null {
  if (pattern.method !== '*' && pattern.method !== method) return null;
  if (pattern.any) return {};
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.segments.length; i++) {
    const want = pattern.segments[i] as string;
    if (want === '*' && i === pattern.segments.length - 1) return params;
    const got = segments[i];
    if (got === undefined) return null;
    if (want.startsWith(':')) params[want.slice(1)] = safeDecode(got);
    else if (want !== got) return null;
  }
  return segments.length === pattern.segments.length ? params : null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
