// The notification renderer the faces hand to the pipeline's notifyRun: a run's message in the
// format asked for, as the webhook's JSON body.

import type { NotifyFormat } from '../pipeline/notify/settings.js';
import type { NotifyMessage } from '../pipeline/notify/notify.js';
import { chatMessageOf } from './notify-message.js';
import { slackBody } from './notify-slack.js';
import { teamsBody } from './notify-teams.js';

export function renderNotification(format: NotifyFormat, message: NotifyMessage): string {
  const chat = chatMessageOf(message);
  return format === 'teams' ? teamsBody(chat) : slackBody(chat);
}
