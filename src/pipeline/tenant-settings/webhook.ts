// A team-chat webhook address carries a signature in its path and query: it is shown by its
// host only, and recognised by its host: a retired Office 365 connector address, or a chat
// service's.

import { chatServiceOfHost } from '../common/chat-hosts.js';

/** `https://host/…`, or null; never the path or query. */
export function webhookShown(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(not an address)';
  }
}

/** Office 365 connector webhooks (outlook.office.com/webhook, *.webhook.office.com), retired by
 *  Microsoft in favour of Workflows addresses. */
export function isRetiredWebhook(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return (
      host === 'outlook.office.com' ||
      host === 'outlook.office365.com' ||
      host.endsWith('.webhook.office.com')
    );
  } catch {
    return false;
  }
}

/** Whether the address is on a chat service's known webhook host (Teams Workflows, Slack). */
export function isKnownChatWebhook(url: string): boolean {
  try {
    return chatServiceOfHost(new URL(url).hostname) !== undefined;
  } catch {
    return false;
  }
}
