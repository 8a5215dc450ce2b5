// The chat services' webhook hosts: Slack's incoming webhooks, and Teams Workflows (Power Automate,
// Logic Apps). The notification guesses its format from them; the tenant settings warn of a webhook
// the service would post to anywhere else.

export type ChatService = 'teams' | 'slack';

const SLACK_HOSTS = [/^hooks\.slack\.com$/, /^hooks\.slack-gov\.com$/];
const TEAMS_HOSTS = [/\.logic\.azure\.com$/, /\.powerplatform\.com$/, /\.powerautomate\.com$/];

/** The chat service a webhook host (lower-case, as URL gives it) belongs to, if a known one. */
export function chatServiceOfHost(host: string): ChatService | undefined {
  if (SLACK_HOSTS.some((pattern) => pattern.test(host))) return 'slack';
  if (TEAMS_HOSTS.some((pattern) => pattern.test(host))) return 'teams';
  return undefined;
}
