/** The `federation.peers` entry the page about the feed offers to copy. */
import { describe, expect, it } from 'vitest';
import type { FeedIndex } from '../../src/model/feed.ts';
import { peerEntry } from '../../src/site/feed-page.ts';

const index = (registry: Partial<FeedIndex['registry']>): FeedIndex =>
  ({ registry: { name: 'acme', title: 'Acme', ...registry } }) as FeedIndex;
const KEY = `ed25519:${'A'.repeat(43)}`;

describe('peerEntry', () => {
  it('pins the public key of a registry that signs', () => {
    expect(JSON.parse(peerEntry(index({ public_key: KEY }), 'https://acme.example/'))).toEqual({
      federation: { peers: [{ name: 'acme', url: 'https://acme.example/feed/v1/index.json', public_key: KEY }] },
    });
  });

  it('has no key for one that does not sign', () => {
    expect(JSON.parse(peerEntry(index({}), 'https://acme.example/'))).toEqual({
      federation: { peers: [{ name: 'acme', url: 'https://acme.example/feed/v1/index.json' }] },
    });
  });
});
