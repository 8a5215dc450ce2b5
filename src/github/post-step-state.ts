// Names of the state the main step saves for the post step (env STATE_<name> there).

/** Id of a scan the main step triggered and must not leave running. */
export const TRIGGERED_SCAN_STATE = 'triggered-scan-id';
/** Id of that scan once it ended or was cancelled: nothing left for the post step. */
export const SETTLED_SCAN_STATE = 'settled-scan-id';
/** A trigger sent whose answer was not saved yet (JSON, see pipeline/lost-trigger.ts), '' once it
 *  was: the post step then looks for the scan it may have started. */
export const PENDING_TRIGGER_STATE = 'pending-trigger';
/** The outcome of the lookup after a lost trigger answer (found, none, several or unreadable; see
 *  LostTriggerOutcome), saved by the step that did it (main, and post when it looked again). */
export const LOST_TRIGGER_STATE = 'lost-trigger';
