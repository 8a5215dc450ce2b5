// Where a rotated key goes: the seam between the rotation and the faces (a GitHub secret, a
// command of the user's). The rotation needs to know whether a failed write may have landed,
// whether a write that answered success proves the store holds the key, and, where the store can
// tell, which of the lineage's keys it never held.

export interface KeyStore {
  /** Where the key is stored, in words ("repository secret TENANT_SCAN_API_KEY of o/r"). */
  readonly description: string;
  /** Whether a write that resolved proves the store holds the key (GitHub's answer does; a
   *  command's exit status does not: it may exit 0 without storing). */
  readonly writeProves: boolean;
  /** Checks the store can be written before any key is created (GitHub: reads the scope's
   *  public key). Throws StoreError. */
  prepare(signal?: AbortSignal): Promise<void>;
  /** Writes the new key; stops when `signal` aborts (the rotation's deadline). Throws StoreError. */
  write(key: string, signal?: AbortSignal): Promise<void>;
  /** The store's version, for a store that tells when it was last written (a GitHub secret's
   *  updated_at; `none` when it does not exist): it goes in the new key's name, and a key whose
   *  name carries the version the store still has was never stored. Throws StoreError. */
  version?(signal?: AbortSignal): Promise<string>;
  /** The key the store holds now, for a store that can read it back (the CLI's
   *  --store-read-command): keys of the lineage made after it were never stored, and a write
   *  that answered success is checked to have taken. A secret: mask it. Throws StoreError. */
  readHeld?(signal?: AbortSignal): Promise<string>;
}

export class StoreError extends Error {
  /** The write may have landed (an answer lost after sending): the new key must then be kept. */
  readonly mayHaveStored: boolean;
  constructor(message: string, options: { mayHaveStored?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'StoreError';
    this.mayHaveStored = options.mayHaveStored ?? false;
  }
}
