// How a queued sweep reaches its Redis, as the API takes it (SweepSpec.queue):
// plain types without Node's or ioredis's, so that the declarations a
// consumer of 'kron' reads need neither (test/package/pack.test.ts).

/** TLS files for a rediss:// URL (PEM); without ca, the system's certificate authorities */
export interface TlsFiles {
  /** the certificate authority that signed the server's certificate */
  readonly ca?: string;
  /** this client's certificate and key, when the server asks for one (tls-auth-clients yes) */
  readonly cert?: string;
  /** the private key of cert */
  readonly key?: string;
  /** the name the server's certificate must carry, when it is not the URL's host */
  readonly servername?: string;
}

/** a queue as the API takes it: a URL alone (the key from KRON_QUEUE_KEY), or with these */
export interface QueueConfig {
  /** redis://[user[:password]@]host[:port][/db] or rediss://… (TLS) */
  readonly url: string;
  /** a file with the signing key (default: the environment variable KRON_QUEUE_KEY) */
  readonly keyFile?: string;
  /** TLS files for a rediss:// URL */
  readonly tls?: TlsFiles;
  /** the producer: seconds Redis may stay unreachable before the sweep fails, and without a result before it says so (default 60) */
  readonly timeout?: number;
  /** progress of the connection, refused messages, lost jobs: one line each (default: stderr) */
  readonly log?: (line: string) => void;
}

/** a queue: its URL, or a URL with options */
export type QueueTarget = string | QueueConfig;
