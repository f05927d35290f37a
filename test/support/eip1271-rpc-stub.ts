import { AbiCoder, dataSlice, recoverAddress } from 'ethers';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** EIP-1271's isValidSignature(bytes32,bytes) selector and its "valid" answer. */
const IS_VALID_SIGNATURE = '0x1626ba7e';
const INVALID = '0xffffffff';

export interface ContractWalletChain {
  /** The JSON-RPC URL to give as AUTH_RPC_URL. */
  url: string;
  /** JSON-RPC methods received, in order. */
  calls: string[];
  close(): Promise<void>;
}

/**
 * An Ethereum JSON-RPC endpoint that knows one smart-contract wallet: `contract` has code, and its
 * isValidSignature accepts a signature its `owner` key made over the hash (as a one-owner Safe does).
 * Every other address is a key-held account (no code). Speaks the wire protocol ethers' JsonRpcProvider uses.
 */
export async function startContractWalletChain({ contract, owner }: { contract: string; owner: string }): Promise<ContractWalletChain> {
  const calls: string[] = [];
  const answer = (method: string, params: Array<Record<string, string> | string>): string => {
    if (method === 'eth_chainId') return '0x1';
    if (method === 'eth_blockNumber') return '0x10';
    if (method === 'eth_getCode') return String(params[0]).toLowerCase() === contract.toLowerCase() ? '0x6080604052' : '0x';
    if (method === 'eth_call') {
      const { to, data } = params[0] as Record<string, string>;
      if (to.toLowerCase() !== contract.toLowerCase() || !data.startsWith(IS_VALID_SIGNATURE)) throw new Error('execution reverted');
      const [hash, signature] = AbiCoder.defaultAbiCoder().decode(['bytes32', 'bytes'], dataSlice(data, 4)) as unknown as [string, string];
      let signer = '';
      try {
        signer = recoverAddress(hash, signature);
      } catch {
        // Not a signature at all: refused below.
      }
      const verdict = signer.toLowerCase() === owner.toLowerCase() ? IS_VALID_SIGNATURE : INVALID;
      return AbiCoder.defaultAbiCoder().encode(['bytes4'], [verdict]);
    }
    throw new Error(`method ${method} not served`);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const requests = JSON.parse(body) as unknown;
      const one = (r: { id: number; method: string; params: Array<Record<string, string> | string> }) => {
        calls.push(r.method);
        try {
          return { jsonrpc: '2.0', id: r.id, result: answer(r.method, r.params) };
        } catch (error) {
          return { jsonrpc: '2.0', id: r.id, error: { code: 3, message: (error as Error).message, data: '0x' } };
        }
      };
      const reply = Array.isArray(requests) ? requests.map(one) : one(requests as Parameters<typeof one>[0]);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
