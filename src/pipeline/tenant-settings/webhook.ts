// A team-chat webhook address carries a signature in its path and query: it is shown by its
// host only, and recognised as a retired Office 365 connector address by its host.

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
