/** Types for scripts/es.mjs (plain JavaScript so `npm run es:start` needs no compile step). */
export declare const VERSION: string;
export interface Instance {
  url: string;
  pid: number | undefined;
  dir: string;
  /** False when a node already answered on the port (then it is not ours to stop). */
  started: boolean;
}
export interface InstanceOptions {
  port?: number;
  dir?: string;
  timeoutMs?: number;
}
export declare function defaultPort(): number;
export declare function instanceDir(port: number): string;
export declare function isUp(url: string): Promise<boolean>;
export declare function javaHome(): string | undefined;
export declare function startElasticsearch(options?: InstanceOptions): Promise<Instance>;
export declare function stopElasticsearch(options?: InstanceOptions): Promise<boolean>;
/** Folder of the unpacked distribution and the instances (readable by the node's user). */
export declare function workDir(): string;
