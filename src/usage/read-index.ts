/** Usage events read back from Elasticsearch (`agent_skill_usage`), scrolled in pages. */
import type { UsageEvent } from '../model/usage.ts';
import { InvalidInputError } from '../lib/errors.ts';
import { parseEventLine } from './read.ts';

export async function readUsageIndex(
  url: string,
  index = 'agent_skill_usage',
  onEvent: (event: UsageEvent) => void,
): Promise<void> {
  const { createClient, describeError, redactUrl } = await import('../emit/elasticsearch/client.ts');
  const client = createClient({ url });
  try {
    // No index is no events recorded there yet — or a wrong URL or name: said, never read as zero.
    if (!(await client.indices.exists({ index }))) throw new Error(`no index named ${index}`);
    const docs = client.helpers.scrollDocuments<UsageEvent>({ index, size: 5000, query: { match_all: {} } });
    for await (const doc of docs) {
      // The index refuses fields it does not map; an event is still checked like a line of a file.
      const event = parseEventLine(JSON.stringify(doc));
      if (typeof event !== 'string') onEvent(event);
    }
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    throw new InvalidInputError(
      `usage source ${redactUrl(url)} (index ${index}): cannot be read (${describeError(err)})`,
    );
  } finally {
    await client.close();
  }
}
