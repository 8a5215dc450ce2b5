// A chat webhook on 127.0.0.1 that validates what it receives as Teams Workflows or Slack would:
// the Teams card with Microsoft's adaptivecards, Slack's blocks against Block Kit's limits
// (chat-validators.ts). A message with a problem gets 400, as the services answer a bad one. Its
// address carries a secret path and query, like a real one, for the tests that look for it in
// logs and files. Answers can be scripted: a status (with Retry-After), a redirect, or silence.
import { randomBytes } from 'node:crypto';
import { startRecordingServer, type HandlerResult, type RecordedRequest } from './http-server.js';
import { slackProblems, teamsProblems } from './chat-validators.js';

export type WebhookAnswer = HandlerResult | 'hang';

export interface ReceivedMessage {
  body: string;
  problems: string[];
  request: RecordedRequest;
}

export interface WebhookStandin {
  /** The secret address: origin, a random path and a signature query. */
  url: string;
  /** The parts of it that must never be seen: the whole, its path, its signature. */
  secrets: string[];
  /** Every request that reached the address (valid or not). */
  requests: RecordedRequest[];
  /** Messages that reached the address and were answered 2xx or 400 (not scripted ones). */
  received: ReceivedMessage[];
  /** The next requests get these answers, in order, before the format's own. */
  answerNext(...answers: WebhookAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startWebhookStandin(format: 'teams' | 'slack'): Promise<WebhookStandin> {
  const requests: RecordedRequest[] = [];
  const received: ReceivedMessage[] = [];
  const scripted: WebhookAnswer[] = [];
  const hanging: Array<() => void> = [];
  const signature = randomBytes(12).toString('hex');
  const path = `/workflows/${randomBytes(8).toString('hex')}/triggers/manual/paths/invoke`;
  const server = await startRecordingServer(requests, (request) => {
    if (request.path !== path || request.url !== `${path}?sig=${signature}`)
      return { status: 404, body: 'no such webhook' };
    const answer = scripted.shift();
    if (answer === 'hang')
      return new Promise<HandlerResult>((resolve) => hanging.push(() => resolve({ status: 500 })));
    if (answer) return answer;
    const body = request.body.toString('utf8');
    let problems: string[];
    try {
      problems = format === 'teams' ? teamsProblems(body) : slackProblems(body);
    } catch (error) {
      problems = [`not JSON: ${(error as Error).message}`];
    }
    received.push({ body, problems, request });
    if (request.headers['content-type']?.startsWith('application/json') !== true)
      problems.push('content-type is not application/json');
    if (problems.length > 0) return { status: 400, body: problems.join('; ') };
    return format === 'teams' ? { status: 202, body: '' } : { status: 200, body: 'ok' };
  });
  const url = `${server.url}${path}?sig=${signature}`;
  return {
    url,
    secrets: [url, path, signature],
    requests,
    received,
    answerNext: (...answers) => scripted.push(...answers),
    reset() {
      requests.length = 0;
      received.length = 0;
      scripted.length = 0;
    },
    async close() {
      for (const release of hanging) release();
      await server.close();
    },
  };
}
