// A notification for a Slack incoming webhook: Block Kit within its documented limits (50 blocks,
// a header's 150 characters, a section's 3,000, 10 fields of 2,000, buttons of 75 characters).
// Every word that is not ours is a plain_text object (emoji off), which Slack never reads as
// mrkdwn: no mention, no link. The notification's fallback `text` holds only the title, with
// Slack's three control characters escaped. Under CHAT_MAX_BYTES, cut with a line for the rest.

import { cutChars } from '../pipeline/common/markdown.js';
import { CHAT_MAX_BYTES, byteLength, renderWithin, type ChatMessage } from './notify-message.js';

export const SLACK_LIMITS = {
  blocks: 50,
  headerChars: 150,
  sectionChars: 3000,
  fields: 10,
  fieldChars: 2000,
  buttonChars: 75,
  actions: 25,
  urlChars: 3000,
} as const;

function plainText(text: string, max: number) {
  return { type: 'plain_text', text: cutChars(text, max), emoji: false };
}

/** Lines packed into sections of at most sectionChars each. */
function sectionsOf(lines: string[]): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  let text = '';
  const flush = () => {
    if (text !== '')
      blocks.push({ type: 'section', text: plainText(text, SLACK_LIMITS.sectionChars) });
    text = '';
  };
  for (const line of lines) {
    const next = text === '' ? line : `${text}\n${line}`;
    if (next.length > SLACK_LIMITS.sectionChars) {
      flush();
      text = cutChars(line, SLACK_LIMITS.sectionChars);
    } else text = next;
  }
  flush();
  return blocks;
}

function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function blocksOf(message: ChatMessage): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [
    { type: 'header', text: plainText(message.title, SLACK_LIMITS.headerChars) },
    ...sectionsOf(message.summary),
  ];
  if (message.facts.length > 0) {
    blocks.push({
      type: 'section',
      fields: message.facts
        .slice(0, SLACK_LIMITS.fields)
        .map((fact) => plainText(`${fact.title}: ${fact.value}`, SLACK_LIMITS.fieldChars)),
    });
  }
  for (const section of message.sections) {
    blocks.push({ type: 'divider' });
    const texts = [`${section.title} (${section.lines.length})`];
    for (const line of section.lines) texts.push(line.text);
    for (const block of sectionsOf(texts)) blocks.push(block);
  }
  if (message.more) blocks.push({ type: 'context', elements: [plainText(message.more, 2000)] });
  const buttons = message.links
    .filter((link) => link.url.length <= SLACK_LIMITS.urlChars)
    .slice(0, SLACK_LIMITS.actions)
    .map((link) => ({
      type: 'button',
      text: plainText(link.label, SLACK_LIMITS.buttonChars),
      url: link.url,
    }));
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  return blocks;
}

function payload(message: ChatMessage): string {
  return JSON.stringify({ text: escapeMrkdwn(message.title), blocks: blocksOf(message) });
}

export function slackBody(message: ChatMessage, maxBytes = CHAT_MAX_BYTES): string {
  return renderWithin(message, payload, (json) => {
    const blocks = (JSON.parse(json) as { blocks: unknown[] }).blocks.length;
    return byteLength(json) <= maxBytes && blocks <= SLACK_LIMITS.blocks;
  });
}
