// Read-only views: threats, policies, remediation capabilities|plans|plan <id>,
// ai-pilot remediable|break-glass|conditional-access.

import type { CommandSpec } from '../command.js';
import { asList, asRecord, oneCall } from './one-call.js';

export const POSTURE_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['threats'],
    summary: 'Show the threat / risk view',
    call: (client, o) => client.threats.list(o),
    show: asList,
  }),
  oneCall({
    path: ['policies'],
    summary: 'Show the policy posture',
    call: (client, o) => client.policies.list(o),
    show: asList,
  }),
  oneCall({
    path: ['remediation', 'capabilities'],
    summary: 'Show the remediation capabilities',
    call: (client, o) => client.remediation.capabilities(o),
    show: asRecord,
  }),
  oneCall({
    path: ['remediation', 'plans'],
    summary: 'List the remediation plans (read only)',
    call: (client, o) => client.remediation.plans(o),
    show: asList,
  }),
  oneCall({
    path: ['remediation', 'plan'],
    summary: 'Show one remediation plan (read only)',
    arg: 'id',
    call: (client, o, id) => client.remediation.plan(id, o),
    show: asRecord,
  }),
  oneCall({
    path: ['ai-pilot', 'remediable'],
    summary: 'AI assistant: findings it could remediate (read only)',
    call: (client, o) => client.aiPilot.remediable(o),
    show: asList,
  }),
  oneCall({
    path: ['ai-pilot', 'break-glass'],
    summary: 'AI assistant: emergency accounts (read only)',
    call: (client, o) => client.aiPilot.breakGlass(o),
    show: asList,
  }),
  oneCall({
    path: ['ai-pilot', 'conditional-access'],
    summary: 'AI assistant: access policies (read only)',
    call: (client, o) => client.aiPilot.conditionalAccess(o),
    show: asList,
  }),
];
