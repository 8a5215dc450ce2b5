// Only the parts of undici the client uses. The package index eagerly loads all of undici (fetch,
// WebSocket, caches, mocks…): ~57 % of the action's module loading time (bench/README.md, Start-up).
// undici 8 has no `exports` map, so these paths resolve under ESM and ncc; they tie the client to
// undici's file layout, which is why undici is pinned exactly (8.12.4) and test/client/unit.test.ts
// checks these exports.
import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';

// The one side effect of undici's index the dispatchers rely on: the API functions as methods of
// every dispatcher (a proxy agent opens its HTTPS tunnel with `client.connect()`).
Object.assign(DispatcherClass.prototype, api);

export const Agent = AgentClass;
export const EnvHttpProxyAgent = EnvHttpProxyAgentClass;

type Options = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, {dispatcher, ...})` without its index: origin and path from the URL. */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  options: Options,
): Promise<Dispatcher.ResponseData> {
  return api.request.call(dispatcher, { ...options, ...originAndPath(url) });
}

/** undici's `stream(url, {dispatcher, ...}, factory)` without its index. */
export function stream(
  dispatcher: Dispatcher,
  url: URL,
  options: Options,
  factory: Dispatcher.StreamFactory,
): Promise<Dispatcher.StreamData> {
  return api.stream.call(dispatcher, { ...options, ...originAndPath(url) }, factory);
}

function originAndPath(url: URL): { origin: string; path: string } {
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}
