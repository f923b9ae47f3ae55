/**
 * vitest globalSetup: one Elasticsearch for every suite that needs it.
 *
 * Uses the node at ELASTICSEARCH_URL, or one already answering on 127.0.0.1:9200; otherwise
 * starts one with scripts/es.mjs and stops it after the run (only what it started). Without
 * Java, outside CI, the Elasticsearch suites are skipped with one loud line; under CI=true a
 * node that cannot start fails the run.
 */
import type { TestProject } from 'vitest/node';
import { isUp, javaHome, startElasticsearch, stopElasticsearch } from '../../scripts/es.mjs';
import { errorMessage } from '../../src/lib/errors.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the test cluster, or '' when Elasticsearch suites must skip. */
    elasticsearchUrl: string;
  }
}

const LOCAL = 'http://127.0.0.1:9200';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const configured = process.env.ELASTICSEARCH_URL;
  if (configured) {
    project.provide('elasticsearchUrl', configured);
    return undefined;
  }
  if (await isUp(LOCAL)) {
    project.provide('elasticsearchUrl', LOCAL);
    return undefined;
  }
  const ci = Boolean(process.env.CI) && process.env.CI !== 'false';
  if (!javaHome() && !ci) {
    process.stderr.write(
      '\n*** SKIPPING Elasticsearch tests: no Java found (install openjdk-17-jre-headless or set ES_JAVA_HOME) ***\n\n',
    );
    project.provide('elasticsearchUrl', '');
    return undefined;
  }
  let instance;
  try {
    instance = await startElasticsearch({ port: 9200 });
  } catch (err) {
    if (ci) throw new Error(`cannot start Elasticsearch for the tests: ${errorMessage(err)}`, { cause: err });
    process.stderr.write(
      `\n*** SKIPPING Elasticsearch tests: cannot start Elasticsearch: ${errorMessage(err)} ***\n\n`,
    );
    project.provide('elasticsearchUrl', '');
    return undefined;
  }
  project.provide('elasticsearchUrl', instance.url);
  return async () => {
    if (instance.started) await stopElasticsearch({ port: 9200, dir: instance.dir });
  };
}
