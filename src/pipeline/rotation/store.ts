// Where a rotated key goes: the seam between the rotation and the faces (a GitHub secret, a
// command of the user's). The rotation needs to know whether a failed write may have landed and,
// where the store can tell, when it was last written or which key it holds.

export interface KeyStore {
  /** Where the key is stored, in words ("repository secret TENANT_SCAN_API_KEY of o/r"). */
  readonly description: string;
  /** Checks the store can be written before any key is created (GitHub: reads the scope's
   *  public key). Throws StoreError. */
  prepare(signal?: AbortSignal): Promise<void>;
  /** Writes the new key; stops when `signal` aborts (the rotation's deadline). Throws StoreError. */
  write(key: string, signal?: AbortSignal): Promise<void>;
  /** When the store was last written, for a store that can tell (a GitHub secret's updated_at):
   *  a key made after it was never stored. Throws StoreError when it cannot be read. */
  lastWritten?(signal?: AbortSignal): Promise<LastWrite>;
  /** The key the store holds now, for a store that can read it back (the CLI's
   *  --store-read-command): keys of the lineage made after it were never stored, and a write
   *  that answered success is checked to have taken. A secret: mask it. Throws StoreError. */
  readHeld?(signal?: AbortSignal): Promise<string>;
}

/** How long before its answer the store was last written, read on the store's own clock (the
 *  answer's Date header minus the write's time), and when the answer arrived (this machine's clock). */
export interface LastWrite {
  agoMs: number;
  observedAtLocalMs: number;
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
