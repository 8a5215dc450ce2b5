// How a rotation fails: one line that names the step and what state the keys and the store are in.

import { PermissionError, TenantApiError } from '../../client/index.js';
import { oneLine } from '../common/errors.js';

export type RotationStep =
  | 'find the key in use'
  | 'prepare the store'
  | 'make room'
  | 'create the new key'
  | 'verify the new key'
  | 'store the new key'
  | 'delete replaced keys';

export const DASHBOARD_HINT =
  'this service does not let a key manage keys (403 AUTH_INSUFFICIENT_SCOPE): rotate the key in the dashboard (Settings, API Keys)';

export class RotationError extends Error {
  readonly step: RotationStep;
  readonly kind: 'user' | 'failure';
  constructor(step: RotationStep, kind: 'user' | 'failure', detail: string) {
    super(`Rotation failed at ${step}: ${oneLine(detail).replace(/\.$/, '')}`);
    this.name = 'RotationError';
    this.step = step;
    this.kind = kind;
  }
}

export function isScopeRefusal(error: unknown): boolean {
  return (
    error instanceof PermissionError ||
    (error instanceof TenantApiError && error.code === 'AUTH_INSUFFICIENT_SCOPE')
  );
}

export function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
