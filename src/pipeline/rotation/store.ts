// Where a rotated key goes: the seam between the rotation and the faces (a GitHub secret, a
// command of the user's). The rotation only needs to know whether a failed write may have landed.

export interface KeyStore {
  /** Where the key is stored, in words ("repository secret TENANT_SCAN_API_KEY of o/r"). */
  readonly description: string;
  /** Checks the store can be written before any key is created (GitHub: reads the scope's
   *  public key). Throws StoreError. */
  prepare(signal?: AbortSignal): Promise<void>;
  /** Writes the new key. Throws StoreError. */
  write(key: string, signal?: AbortSignal): Promise<void>;
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
