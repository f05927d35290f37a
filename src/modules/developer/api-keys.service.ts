import { Injectable } from '@nestjs/common';
import { AccountAdminService } from '../account/account-admin.service';
import { ApiKeyEntity } from '../account/entities/api-key.entity';
import { WalletPrincipal } from '../access/principal';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

/** The signed-in wallet's own API keys (contract 5.1), through the same service the ops CLI uses. */
@Injectable()
export class ApiKeysService {
  constructor(private readonly admin: AccountAdminService) {}

  /** Newest first, revoked ones included (marked). */
  async list({ walletAddress }: WalletPrincipal): Promise<ApiKeyDto[]> {
    const keys = await this.admin.listKeys({ wallet: walletAddress });
    return keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map(toApiKeyDto);
  }

  async create({ walletAddress }: WalletPrincipal, name: string): Promise<CreatedApiKeyDto> {
    const created = await this.admin.createKey({ wallet: walletAddress, name });
    const key = { id: created.id, name: created.name, prefix: created.prefix, createdAt: created.createdAt, lastUsedAt: null, revokedAt: null };
    return { ...toApiKeyDto(key), key: created.key };
  }

  /** Stops working on every replica within API_KEY_CACHE_TTL_MS (at most 5 s). */
  async revoke({ accountId }: WalletPrincipal, keyId: string): Promise<ApiKeyDto> {
    return toApiKeyDto(await this.admin.revokeOwnKey({ accountId, keyId }));
  }
}

function toApiKeyDto(key: Pick<ApiKeyEntity, 'id' | 'name' | 'prefix' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    status: key.revokedAt ? 'revoked' : 'active',
  };
}
