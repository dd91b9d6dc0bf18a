/** s3rver ships no types; the little the S3 test uses. */
declare module "s3rver" {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** Empties the store: every bucket and object goes. */
    reset(): void;
    /** Makes the buckets of `configureBuckets` (run does it at start). */
    configureBuckets(): Promise<void>;
  }
}
