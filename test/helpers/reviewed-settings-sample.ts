// A tenant settings file whose plan has something of every kind (a flag, a webhook from its
// variable, a relabel, a kept and a pruned target), and the webhook address it names: the saved-plan
// tests of both faces apply it.
export const HOOK =
  'https://prod-07.westeurope.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?sig=SECRETSIGNATURE';

export const YAML = [
  'notifications:',
  '  emailOnFail: true',
  '  teamsWebhookUrlEnv: TEAMS_HOOK',
  'attackSurface:',
  '  prune: true',
  '  targets:',
  '    - {host: app.example.com, label: Production}',
  '    - {host: kept.example.com}',
  '',
].join('\n');
