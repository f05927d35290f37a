import request from 'supertest';
import { BaseWallet, Wallet } from 'ethers';
import { TestApp } from './create-test-app';

export const BACKEND = '/api/v1';

type Server = Parameters<typeof request>[0];

/** POST a backend route with a JSON body and, when given, a bearer token. */
export function post(t: TestApp, path: string, body?: object, token?: string) {
  const req = request(t.server as Server).post(`${BACKEND}${path}`);
  if (token !== undefined) req.set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
}

/** A backend request of any method with a bearer token. */
export function backend(t: TestApp, method: 'get' | 'delete' | 'post', path: string, token?: string) {
  const req = request(t.server as Server)[method](`${BACKEND}${path}`);
  return token === undefined ? req : req.set('authorization', `Bearer ${token}`);
}

/** login's challenge for the wallet: its message and nonce. */
export async function challengeFor(t: TestApp, wallet: BaseWallet, address: string = wallet.address): Promise<{ message: string; nonce: string }> {
  const res = await post(t, '/auth/login', { address });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The whole sign-in, as a wallet and the portal do it: the session token and its expiry. */
export async function signIn(t: TestApp, wallet: BaseWallet = Wallet.createRandom()): Promise<{ token: string; expiresAt: string }> {
  const { message } = await challengeFor(t, wallet);
  const res = await post(t, '/auth/sign-message', { address: wallet.address, message, signature: await wallet.signMessage(message) });
  if (res.status !== 200) throw new Error(`sign-message answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
