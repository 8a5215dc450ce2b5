// How the repository refers to actions: every `uses:` of a third-party action or reusable
// workflow names a full commit SHA with its release in a comment (`@<40 hex> # vX.Y.Z`, the form
// Dependabot keeps up to date), one release per action across the repository. A tag or a branch
// can be moved to other code (trivy-action's tags were, in March 2026); a commit cannot.
// Our own action and workflows (`tenant-scan/tenant-scan…`) may stay at a version tag in
// user-facing examples (docs/github.md gives the SHA form); local ones (`./…`) are ours too.

import { isScalar, parseAllDocuments, visit } from 'yaml';

export interface Use {
  /** Where it is written: file, and the snippet for Markdown. */
  where: string;
  /** The `uses:` value. */
  uses: string;
  /** The comment after it on the same line, trimmed ('' when none). */
  comment: string;
}

const SHA = /^[0-9a-f]{40}$/;
const VERSION_COMMENT = /^v\d+\.\d+\.\d+$/;
const OWN = /^tenant-scan\/tenant-scan(?:\/[^@]+)?@(?:v\d+(?:\.\d+){0,2}|[0-9a-f]{40})$/;
const REMOTE = /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)(?:\/[^@]*)?@([^@]+)$/;
const DOCKER_DIGEST = /^docker:\/\/[^@]+@sha256:[0-9a-f]{64}$/;

/** Every `uses:` of a YAML text (all its documents), with its trailing comment. */
export function usesIn(where: string, text: string): Use[] {
  const found: Use[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0)
      throw new Error(`${where}: not valid YAML: ${doc.errors[0]?.message}`);
    visit(doc, {
      Pair(_key, pair) {
        if (!isScalar(pair.key) || pair.key.value !== 'uses' || !isScalar(pair.value)) return;
        found.push({
          where,
          uses: String(pair.value.value),
          comment: (pair.value.comment ?? '').trim(),
        });
      },
    });
  }
  // A `uses:` the parse did not see as a key (inside a block scalar, a broken snippet) is a miss.
  const written = text.split('\n').filter((line) => /^\s*(?:-\s+)?uses:\s*\S/.test(line)).length;
  if (written !== found.length) {
    throw new Error(`${where}: ${written} uses: lines but ${found.length} parsed as steps or jobs`);
  }
  return found;
}

/** The YAML blocks (```yaml / ```yml) of a Markdown text, each as its own source. */
export function yamlBlocksOf(
  where: string,
  markdown: string,
): Array<{ where: string; text: string }> {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((match, i) => ({
    where: `${where} snippet ${i + 1}`,
    text: match[1] ?? '',
  }));
}

/** What is wrong with one `uses:`, or undefined. */
function problemOf({ where, uses, comment }: Use): string | undefined {
  if (uses === '.' || uses.startsWith('./')) return undefined;
  if (uses.startsWith('docker://')) {
    return DOCKER_DIGEST.test(uses) ? undefined : `${where}: ${uses} is not pinned to a digest`;
  }
  if (uses.startsWith('tenant-scan/tenant-scan/') || uses.startsWith('tenant-scan/tenant-scan@')) {
    return OWN.test(uses) ? undefined : `${where}: ${uses}: our own refs are vN tags or commits`;
  }
  const ref = REMOTE.exec(uses)?.[2];
  if (ref === undefined) return `${where}: ${uses} is not owner/repo[/path]@ref`;
  if (!SHA.test(ref)) return `${where}: ${uses} is not pinned to a full commit SHA`;
  if (!VERSION_COMMENT.test(comment)) {
    return `${where}: ${uses} has no "# vX.Y.Z" comment naming its release (found "${comment}")`;
  }
  return undefined;
}

/** Problems of a set of uses: unpinned ones, and actions pinned to more than one release. */
export function pinProblems(uses: Use[]): string[] {
  const problems = uses.map(problemOf).filter((p): p is string => p !== undefined);
  const pins = new Map<string, Map<string, string[]>>();
  for (const use of uses) {
    const match = REMOTE.exec(use.uses);
    if (!match || !SHA.test(match[2] ?? '') || use.uses.startsWith('tenant-scan/tenant-scan')) {
      continue;
    }
    const repo = match[1] ?? '';
    const pin = `${match[2]} # ${use.comment}`;
    const byPin = pins.get(repo) ?? new Map<string, string[]>();
    byPin.set(pin, [...(byPin.get(pin) ?? []), use.where]);
    pins.set(repo, byPin);
  }
  for (const [repo, byPin] of pins) {
    if (byPin.size < 2) continue;
    const each = [...byPin].map(([pin, where]) => `${pin} (${where.join(', ')})`);
    problems.push(`${repo} is pinned to ${byPin.size} releases: ${each.join('; ')}`);
  }
  return problems;
}
