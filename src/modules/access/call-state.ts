import { RequestState, requestState } from '../../common/http/request-state';
import { ApiCaller } from '../account/api-caller';
import { Admission } from '../billing/admission.service';

/** What the key pipeline learns about one request as it passes through the guard and the filter. */
export interface CallState extends RequestState {
  caller?: ApiCaller;
  /** A route's guard looked the key up (whatever came of it). */
  keyLookedUp?: boolean;
  admission?: Admission;
}

/**
 * The request's one state object, with the pipeline's fields. The same object as requestState() (one
 * lookup per step, as before), typed here because only this module writes those fields.
 */
export function callState(req: unknown): CallState {
  return requestState(req) as CallState;
}
