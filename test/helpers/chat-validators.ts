// Validators of what a chat webhook receives. Teams (Workflows): the message envelope around one
// Adaptive Card, the card parsed by Microsoft's own Adaptive Cards library (npm adaptivecards:
// every parse and validation event it reports is a problem), under 28 KB. Slack: Block Kit
// against its documented limits (api.slack.com/reference/block-kit/blocks): 50 blocks, header
// 150 characters of plain_text, section text 3,000, 10 fields of 2,000, context 10 elements,
// actions 25 elements, button text 75, URL 3,000; a text object is plain_text or mrkdwn.

import { createRequire } from 'node:module';

type AdaptiveCards = typeof import('adaptivecards');
// The package's ESM build imports extensionless paths Node cannot resolve; its UMD build loads.
const AC = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as AdaptiveCards;

/** Microsoft's limit on a Teams message. */
export const TEAMS_MAX_BYTES = 28 * 1000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The card a Workflows message carries, or the problems of its envelope. */
export function teamsCard(body: string): { card?: Json; problems: string[] } {
  const problems: string[] = [];
  if (Buffer.byteLength(body) > TEAMS_MAX_BYTES)
    problems.push(`${Buffer.byteLength(body)} bytes: over the 28 KB a Teams message may have`);
  const message = JSON.parse(body) as unknown;
  if (!isObject(message) || message.type !== 'message') problems.push('type is not "message"');
  const attachments = isObject(message) ? message.attachments : undefined;
  if (!Array.isArray(attachments) || attachments.length !== 1) {
    problems.push('not exactly one attachment');
    return { problems };
  }
  const [attachment] = attachments as unknown[];
  if (!isObject(attachment) || attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
    problems.push('the attachment is not an Adaptive Card');
  const card = isObject(attachment) ? attachment.content : undefined;
  if (!isObject(card) || card.type !== 'AdaptiveCard') {
    problems.push('the attachment holds no AdaptiveCard');
    return { problems };
  }
  return { card, problems };
}

/** Every problem of a Workflows message for Teams: its envelope, its size, and what the Adaptive
 *  Cards library reports parsing and validating the card ([] when it is clean). */
export function teamsProblems(body: string): string[] {
  const { card, problems } = teamsCard(body);
  if (!card) return problems;
  const parsed = new AC.AdaptiveCard();
  const context = new AC.SerializationContext();
  parsed.parse(card, context);
  for (let i = 0; i < context.eventCount; i++) {
    const event = context.getEventAt(i);
    problems.push(`adaptivecards: ${AC.ValidationEvent[event.event]}: ${event.message}`);
  }
  for (const event of parsed.validateProperties().validationEvents) {
    problems.push(`adaptivecards: ${AC.ValidationEvent[event.event]}: ${event.message}`);
  }
  return problems;
}

/** Every string the card shows as text (TextBlock and TextRun texts, fact values, titles). */
export function teamsTexts(card: unknown): Array<{ type: string; text: string }> {
  const out: Array<{ type: string; text: string }> = [];
  const walk = (node: unknown, type: string) => {
    if (Array.isArray(node)) for (const item of node) walk(item, type);
    else if (isObject(node)) {
      const own = typeof node.type === 'string' ? node.type : type;
      for (const [key, value] of Object.entries(node)) {
        if (typeof value === 'string' && ['text', 'title', 'value'].includes(key))
          out.push({ type: own, text: value });
        else walk(value, own);
      }
    }
  };
  walk(card, '');
  return out;
}

export const SLACK_LIMITS = {
  blocks: 50,
  header: 150,
  section: 3000,
  fields: 10,
  field: 2000,
  context: 10,
  actions: 25,
  button: 75,
  url: 3000,
};

function textObjectProblems(where: string, value: unknown, max: number): string[] {
  if (!isObject(value)) return [`${where}: not a text object`];
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn')
    return [`${where}: type ${String(value.type)}`];
  if (typeof value.text !== 'string' || value.text.length === 0) return [`${where}: empty text`];
  return value.text.length > max ? [`${where}: ${value.text.length} characters, over ${max}`] : [];
}

function blockProblems(block: unknown, index: number): string[] {
  const where = `blocks[${index}]`;
  if (!isObject(block)) return [`${where}: not an object`];
  switch (block.type) {
    case 'header':
      return isObject(block.text) && block.text.type !== 'plain_text'
        ? [`${where}: a header's text must be plain_text`]
        : textObjectProblems(`${where}.text`, block.text, SLACK_LIMITS.header);
    case 'section': {
      const fields = Array.isArray(block.fields) ? (block.fields as unknown[]) : [];
      const problems = fields.flatMap((f, i) =>
        textObjectProblems(`${where}.fields[${i}]`, f, SLACK_LIMITS.field),
      );
      if (fields.length > SLACK_LIMITS.fields) problems.push(`${where}: over 10 fields`);
      if (block.text !== undefined)
        problems.push(...textObjectProblems(`${where}.text`, block.text, SLACK_LIMITS.section));
      if (block.text === undefined && fields.length === 0) problems.push(`${where}: no text`);
      return problems;
    }
    case 'divider':
      return [];
    case 'context': {
      const elements = Array.isArray(block.elements) ? (block.elements as unknown[]) : [];
      const problems = elements.flatMap((e, i) =>
        textObjectProblems(`${where}.elements[${i}]`, e, SLACK_LIMITS.section),
      );
      if (elements.length === 0 || elements.length > SLACK_LIMITS.context)
        problems.push(`${where}: 1 to 10 elements`);
      return problems;
    }
    case 'actions': {
      const elements = Array.isArray(block.elements) ? (block.elements as unknown[]) : [];
      const problems =
        elements.length === 0 || elements.length > SLACK_LIMITS.actions
          ? [`${where}: 1 to 25 elements`]
          : [];
      elements.forEach((e, i) => {
        if (!isObject(e) || e.type !== 'button') return problems.push(`${where}: not a button`);
        problems.push(
          ...textObjectProblems(`${where}.elements[${i}].text`, e.text, SLACK_LIMITS.button),
        );
        if (typeof e.url === 'string' && e.url.length > SLACK_LIMITS.url)
          problems.push(`${where}: url too long`);
      });
      return problems;
    }
    default:
      return [`${where}: unexpected block type ${String(block.type)}`];
  }
}

/** Every problem of a Slack incoming-webhook payload against Block Kit's documented limits. */
export function slackProblems(body: string, maxBytes = TEAMS_MAX_BYTES): string[] {
  const payload = JSON.parse(body) as unknown;
  if (!isObject(payload)) return ['not a JSON object'];
  const problems: string[] = [];
  if (Buffer.byteLength(body) > maxBytes) problems.push(`${Buffer.byteLength(body)} bytes`);
  if (typeof payload.text !== 'string' || payload.text === '')
    problems.push('no fallback text (the notification shows it)');
  const blocks = Array.isArray(payload.blocks) ? (payload.blocks as unknown[]) : [];
  if (blocks.length === 0 || blocks.length > SLACK_LIMITS.blocks)
    problems.push(`${blocks.length} blocks: 1 to 50 allowed`);
  blocks.forEach((block, index) => problems.push(...blockProblems(block, index)));
  return problems;
}

/** Every plain or mrkdwn text of a Slack payload, with its type. */
export function slackTexts(body: string): Array<{ type: string; text: string }> {
  const out: Array<{ type: string; text: string }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (isObject(node)) {
      if ((node.type === 'plain_text' || node.type === 'mrkdwn') && typeof node.text === 'string')
        out.push({ type: node.type, text: node.text });
      else for (const value of Object.values(node)) walk(value);
    }
  };
  walk(JSON.parse(body));
  return out;
}
