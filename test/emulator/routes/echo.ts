// What a service that echoes keys writes into its text (UnknownsVariant.echoKey, echoEveryKey,
// echoTexts): the key the request presented, every key the host holds (one SaaS host serves every
// tenant: tenant B's answers may carry tenant A's key), each in every form of echoForms, and any
// text a test drew.
import { echoForms, type Echoed } from '../findings.js';
import type { RequestContext } from './route.js';

export function echoedTexts(ctx: RequestContext): Echoed {
  const { variant, store } = ctx.rt;
  const keys = new Set<string>();
  if (variant.echoKey) keys.add(ctx.key.key);
  if (variant.echoEveryKey) for (const record of store.keys.values()) keys.add(record.key);
  const texts: string[] = [];
  for (const key of keys) for (const form of echoForms(key)) texts.push(form);
  for (const text of variant.echoTexts ?? []) texts.push(text);
  return texts;
}
