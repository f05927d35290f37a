import { BaseWallet, Wallet } from 'ethers';
import { createTestApp, TestApp } from '../support/create-test-app';
import { ContractWalletChain, startContractWalletChain } from '../support/eip1271-rpc-stub';
import { testConfig } from '../support/test-env';
import { challengeFor, post } from '../support/wallet-session';

describe('Wallet sessions: smart-contract wallets (EIP-1271, AUTH_RPC_URL)', () => {
  const owner = Wallet.createRandom();
  const contract = Wallet.createRandom().address;
  let chain: ContractWalletChain;
  let t: TestApp;

  beforeAll(async () => {
    chain = await startContractWalletChain({ contract, owner: owner.address });
    t = await createTestApp(testConfig({ AUTH_RPC_URL: chain.url }));
  });
  afterAll(async () => {
    await t.close();
    await chain.close();
  });

  const signInAs = async (address: string, signer: BaseWallet) => {
    const { message } = await challengeFor(t, signer, address);
    return post(t, '/auth/sign-message', { address, message, signature: await signer.signMessage(message) });
  };

  it('signs a contract wallet in when its isValidSignature accepts the signature', async () => {
    const res = await signInAs(contract, owner);
    expect(res.status).toBe(200);
    expect(chain.calls).toEqual(expect.arrayContaining(['eth_getCode', 'eth_call']));
  });

  it('refuses 401 INVALID_SIGNATURE when the contract does not accept it, and for a key-held address signed by another', async () => {
    const stranger = Wallet.createRandom();
    const refused = await signInAs(contract, stranger);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INVALID_SIGNATURE');
    const eoa = Wallet.createRandom();
    const other = await signInAs(eoa.address, stranger);
    expect(other.status).toBe(401);
    expect(other.body.code).toBe('INVALID_SIGNATURE');
  });

  it('answers 503 without the RPC’s words when the chain cannot be asked', async () => {
    const down = await createTestApp(testConfig({ AUTH_RPC_URL: 'http://127.0.0.1:9/rpc' }));
    try {
      const { message } = await challengeFor(down, owner, contract);
      const res = await post(down, '/auth/sign-message', { address: contract, message, signature: await owner.signMessage(message) });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', msg: 'signature: a contract wallet cannot be checked right now; try again later', data: null });
      expect(res.text).not.toContain('127.0.0.1');
    } finally {
      await down.close();
    }
  });
});
