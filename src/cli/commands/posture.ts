// Read-only views: threats, policies, remediation capabilities|plans|plan <id>,
// ai-pilot remediable|break-glass|conditional-access.

import type { CommandSpec } from '../command.js';
import { anyRecord } from '../render.js';
import { readList, readRecord } from './read.js';

const plan: CommandSpec = {
  path: ['remediation', 'plan'],
  summary: 'Show one remediation plan (read only)',
  args: ['id'],
  async run(ctx, input) {
    const data = await ctx.client().remediation.plan(input.args.id ?? '', { signal: ctx.signal });
    return { json: data, text: anyRecord(data) };
  },
};

export const POSTURE_COMMANDS: CommandSpec[] = [
  readList(['threats'], 'Show the threat / risk view', (ctx) =>
    ctx.client().threats.list({ signal: ctx.signal }),
  ),
  readList(['policies'], 'Show the policy posture', (ctx) =>
    ctx.client().policies.list({ signal: ctx.signal }),
  ),
  readRecord(['remediation', 'capabilities'], 'Show the remediation capabilities', (ctx) =>
    ctx.client().remediation.capabilities({ signal: ctx.signal }),
  ),
  readList(['remediation', 'plans'], 'List the remediation plans (read only)', (ctx) =>
    ctx.client().remediation.plans({ signal: ctx.signal }),
  ),
  plan,
  readList(
    ['ai-pilot', 'remediable'],
    'AI assistant: findings it could remediate (read only)',
    (ctx) => ctx.client().aiPilot.remediable({ signal: ctx.signal }),
  ),
  readList(['ai-pilot', 'break-glass'], 'AI assistant: emergency accounts (read only)', (ctx) =>
    ctx.client().aiPilot.breakGlass({ signal: ctx.signal }),
  ),
  readList(['ai-pilot', 'conditional-access'], 'AI assistant: access policies (read only)', (ctx) =>
    ctx.client().aiPilot.conditionalAccess({ signal: ctx.signal }),
  ),
];
