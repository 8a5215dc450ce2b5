// Guarantees 5 and 9 as properties of the redaction core (src/client/secrets): for any key (the
// edges of its alphabet and length) and any chain of transformations a service may echo it in
// (test/helpers/secret-forms.ts), placed anywhere in any surrounding text, a reader who strips what
// does not show, normalises and decodes (test/helpers/secret-reader.ts, an independent oracle) reads
// the secret part in no output; and text that holds no secret comes out unchanged. The same for a
// webhook's signature in what the delivery says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redact, redactSecrets } from '../../../src/client/redact.js';
import { withoutWebhook } from '../../../src/pipeline/notify/deliver.js';
import { propertyParameters } from '../../helpers/property.js';
import {
  apiKeyArb,
  applyChain,
  chainArb,
  signatureArb,
  surroundArb,
  webhookOf,
} from '../../helpers/secret-forms.js';
import { readsSecret } from '../../helpers/secret-reader.js';

const partOf = (key: string) => key.slice('ak_live_'.length);

describe('redaction: a secret is read in no output, whatever form it is echoed in', () => {
  it('an API key (whole or its secret part), transformed, anywhere in any text', () => {
    fc.assert(
      fc.property(
        apiKeyArb,
        fc.boolean(),
        chainArb,
        surroundArb,
        surroundArb,
        (key, whole, chain, before, after) => {
          const text = `${before}${applyChain(chain, whole ? key : partOf(key))}${after}`;
          fc.pre(readsSecret(text, partOf(key)));
          for (const out of [redactSecrets(text, [key]), redact(text, [key])]) {
            assert.ok(!readsSecret(out, partOf(key)), `still readable in ${JSON.stringify(out)}`);
          }
        },
      ),
      propertyParameters(150),
    );
  });

  it('text that holds no secret comes out unchanged (our own emoji and its U+FE0F too)', () => {
    fc.assert(
      fc.property(apiKeyArb, surroundArb, surroundArb, (key, a, b) => {
        const text = `${a}⚠️ ${b}`;
        fc.pre(!readsSecret(text, partOf(key)));
        assert.equal(redactSecrets(text, [key]), text);
      }),
      propertyParameters(150),
    );
  });

  it("a webhook's signature, transformed, in the delivery's words", () => {
    fc.assert(
      fc.property(signatureArb, chainArb, surroundArb, (signature, chain, before) => {
        const webhook = webhookOf(signature);
        const text = `the webhook answered HTTP 401: ${before}${applyChain(chain, signature)}`;
        fc.pre(readsSecret(text, signature));
        const out = withoutWebhook(text, webhook);
        assert.ok(!readsSecret(out, signature), `still readable in ${JSON.stringify(out)}`);
        assert.ok(out.startsWith('the webhook answered HTTP 401: '), 'our own words stay');
      }),
      propertyParameters(100),
    );
  });
});
