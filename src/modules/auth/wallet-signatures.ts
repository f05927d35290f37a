import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Contract, FetchRequest, hashMessage, JsonRpcProvider, verifyMessage } from 'ethers';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AppConfig } from '../../config/app.config';

/** What EIP-1271's isValidSignature answers for a signature the contract accepts. */
const EIP1271_MAGIC_VALUE = '0x1626ba7e';
const EIP1271_ABI = ['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)'];
const RPC_TIMEOUT_MS = 5_000;

/**
 * Whether `signature` is `address`'s personal_sign (EIP-191) of `message`: recovered with ethers for a key
 * held wallet; with AUTH_RPC_URL set, a smart-contract wallet's own EIP-1271 check is asked as well.
 */
@Injectable()
export class WalletSignatures implements OnApplicationShutdown {
  private readonly logger = new Logger(WalletSignatures.name);
  private readonly provider?: JsonRpcProvider;

  constructor(config: ConfigService<AppConfig, true>) {
    const rpcUrl = config.get('auth.rpcUrl', { infer: true });
    if (rpcUrl) {
      const request = new FetchRequest(rpcUrl);
      request.timeout = RPC_TIMEOUT_MS;
      this.provider = new JsonRpcProvider(request, undefined, { staticNetwork: true });
    }
  }

  onApplicationShutdown() {
    this.provider?.destroy();
  }

  /** Throws 401 INVALID_SIGNATURE unless the wallet signed the message. `address` is lower case. */
  async assertSigned(address: string, message: string, signature: string): Promise<void> {
    if (recoveredSigner(message, signature) === address) return;
    if (this.provider && (await this.contractAccepts(address, message, signature))) return;
    throw new AppError(ErrorCode.INVALID_SIGNATURE, 'signature: not made by address over this message');
  }

  private async contractAccepts(address: string, message: string, signature: string): Promise<boolean> {
    try {
      if ((await this.provider!.getCode(address)) === '0x') return false;
      const wallet = new Contract(address, EIP1271_ABI, this.provider);
      return (await wallet.isValidSignature(hashMessage(message), signature)) === EIP1271_MAGIC_VALUE;
    } catch (error) {
      // A contract that reverts refuses the signature; an RPC that cannot be reached is not the caller's fault.
      if ((error as { code?: string }).code === 'CALL_EXCEPTION') return false;
      this.logger.warn(`EIP-1271 check of ${address} failed: ${(error as Error).message}`);
      throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'signature: a contract wallet cannot be checked right now; try again later');
    }
  }
}

/** The lower-case address a personal_sign signature recovers to, or undefined when it is no valid signature. */
function recoveredSigner(message: string, signature: string): string | undefined {
  try {
    return verifyMessage(message, signature).toLowerCase();
  } catch {
    return undefined;
  }
}
