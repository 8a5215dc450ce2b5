// A notification for Teams through a Workflows webhook: an Adaptive Card (1.4) in the message
// envelope Workflows takes (the retired Office 365 connectors took another). Every word that is
// not ours sits in a TextRun of a RichTextBlock, which Teams never reads as Markdown; our links
// are Action.OpenUrl buttons. Under CHAT_MAX_BYTES, cut with a line saying how many more.

import type { Severity } from '../client/index.js';
import {
  CHAT_MAX_BYTES,
  byteLength,
  renderWithin,
  type ChatLine,
  type ChatMessage,
} from './notify-message.js';

const SEVERITY_COLOR: Partial<Record<Severity, string>> = {
  critical: 'Attention',
  high: 'Attention',
  medium: 'Warning',
  unknown: 'Attention',
};

function textRun(text: string, style: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'TextRun', text, ...style };
}

function richText(inlines: Array<Record<string, unknown>>, spacing = 'None') {
  return { type: 'RichTextBlock', spacing, inlines };
}

function lineBlock(line: ChatLine) {
  const color = line.severity ? SEVERITY_COLOR[line.severity] : undefined;
  return richText([textRun(line.text, color ? { color } : {})]);
}

function card(message: ChatMessage): Record<string, unknown> {
  const body: Array<Record<string, unknown>> = [
    richText(
      [
        textRun(message.title, {
          size: 'Large',
          weight: 'Bolder',
          color: message.failed ? 'Attention' : 'Good',
        }),
      ],
      'Default',
    ),
    ...message.summary.map((line) => richText([textRun(line)])),
  ];
  if (message.facts.length > 0) {
    body.push({
      type: 'ColumnSet',
      columns: message.facts.map((fact) => ({
        type: 'Column',
        width: 'auto',
        items: [
          richText([textRun(fact.title, { isSubtle: true, size: 'Small' })]),
          richText([textRun(fact.value, { weight: 'Bolder' })]),
        ],
      })),
    });
  }
  for (const section of message.sections) {
    body.push(
      richText(
        [textRun(`${section.title} (${section.lines.length})`, { weight: 'Bolder' })],
        'Medium',
      ),
    );
    for (const line of section.lines) body.push(lineBlock(line));
  }
  if (message.more)
    body.push(richText([textRun(message.more, { isSubtle: true, italic: true })], 'Medium'));
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body,
    actions: message.links.map((link) => ({
      type: 'Action.OpenUrl',
      title: link.label,
      url: link.url,
    })),
  };
}

/** The Workflows envelope around one Adaptive Card. */
function envelope(message: ChatMessage): string {
  return JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: card(message),
      },
    ],
  });
}

export function teamsBody(message: ChatMessage, maxBytes = CHAT_MAX_BYTES): string {
  return renderWithin(message, envelope, (json) => byteLength(json) <= maxBytes);
}
