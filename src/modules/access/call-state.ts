import { RequestState, requestState } from '../../common/http/request-state';
import { ApiCaller } from '../account/api-caller';
import type { Admission } from '../billing/billing.public';
import type { Principal } from './principal';

/** What the access guard and the filter learn about one request as it passes through. */
export interface CallState extends RequestState {
  /** The key holder, on a public-key route past key auth. */
  caller?: ApiCaller;
  /** Who the request serves: a wallet session's, set by the guard; a key holder's, made on first ask (principalOf). */
  principal?: Principal;
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
