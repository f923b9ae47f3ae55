/**
 * The page about the feed (`/feed/`) as `skillpress build` writes it: its "peer entry to copy"
 * carries the registry's public key when the registry signs its skills, so whoever copies it pins
 * the key as docs/federation-and-install.md advises.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureSite, SKILLS, type BuiltFixture } from './helpers/fixture.ts';

let signed: BuiltFixture;

beforeAll(async () => {
  signed = await buildFixtureSite({
    skills: SKILLS.slice(0, 1),
    config: { registry: { name: 'acme', url: 'https://acme.example/', signing_key: 'keys/acme.pem' } },
  });
});
afterAll(() => signed?.cleanup());

/** The text of the page's peer snippet, as a reader copies it. */
function peerSnippet(html: string): string {
  const code = /<pre id="peer-snippet"[^>]*><code>([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1];
  expect(code, 'the page has a peer snippet').toBeDefined();
  const entities: Record<string, string> = { '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'" };
  return code!.replace(/&(quot|amp|lt|gt|#39);/g, (e) => entities[e]!);
}

describe('/feed/: the peer entry to copy', () => {
  it("names the registry's public key when it signs its feed", async () => {
    const index = JSON.parse(await readFile(path.join(signed.outDir, 'feed/v1/index.json'), 'utf8'));
    expect(index.registry.public_key).toMatch(/^ed25519:/);
    const html = await readFile(path.join(signed.outDir, 'feed/index.html'), 'utf8');
    expect(JSON.parse(peerSnippet(html))).toEqual({
      federation: {
        peers: [
          {
            name: 'acme',
            url: 'https://acme.example/feed/v1/index.json',
            public_key: index.registry.public_key,
          },
        ],
      },
    });
    expect(html).toContain('pins the key this catalog signs its skills with');
  });
});
