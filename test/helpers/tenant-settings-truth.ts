// What a tenant's settings are on the emulator, read over its API, and whether a change line of
// `tenant-scan tenant apply` is in effect there: shared by the apply property and the campaign.
import type { Emulator } from '../emulator/types.js';

export interface Target {
  id: string;
  host: string;
  label: string | null;
  verified: boolean;
}

export interface Truth {
  flags: Record<string, unknown>;
  targets: Target[];
}

export async function readTruth(emu: Emulator, key: string): Promise<Truth> {
  const get = async (path: string) => {
    const response = await fetch(`${emu.url}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await response.json()) as { data: unknown }).data;
  };
  return {
    flags: (await get('/tenants/me/notifications')) as Record<string, unknown>,
    targets: (await get('/tenants/me/attack-surface/targets')) as Target[],
  };
}

/** Whether what a change line asks for is so in `truth`. */
export function inEffect(change: string, truth: Truth): boolean {
  const target = (host: string) => truth.targets.find((t) => t.host === host);
  const notifications = /^notifications: (.*)$/.exec(change);
  if (notifications) {
    return (notifications[1] ?? '').split(', ').every((part) => {
      const [field, value] = part.split(' → ');
      return String(truth.flags[field ?? '']) === value;
    });
  }
  const add = /^add target (\S+)(?: \((.*)\))?$/.exec(change);
  if (add) {
    const have = target(add[1] ?? '');
    const label = /label "([^"]*)"/.exec(add[2] ?? '')?.[1];
    const verify = /verify/.test(add[2] ?? '');
    return (
      have !== undefined &&
      (label === undefined || have.label === label) &&
      (!verify || have.verified)
    );
  }
  const relabel = /^relabel target (\S+) to "([^"]*)"$/.exec(change);
  if (relabel) return target(relabel[1] ?? '')?.label === relabel[2];
  const verify = /^verify target (\S+)$/.exec(change);
  if (verify) return target(verify[1] ?? '')?.verified === true;
  const remove = /^remove target (\S+)$/.exec(change);
  if (remove) return target(remove[1] ?? '') === undefined;
  throw new Error(`no test knows the change ${JSON.stringify(change)}`);
}
