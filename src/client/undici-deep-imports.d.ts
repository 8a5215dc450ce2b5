// Types of the undici files the client loads instead of the package index (see undici-parts.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export default EnvHttpProxyAgentClass;
}

declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  /** The dispatcher API functions; each runs with `this` = the dispatcher (undici mixes them into
   *  Dispatcher.prototype in its index, which the client does not load). */
  const api: {
    request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
    stream(
      this: Dispatcher,
      options: Dispatcher.RequestOptions,
      factory: Dispatcher.StreamFactory,
    ): Promise<Dispatcher.StreamData>;
  };
  export default api;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';
  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}
