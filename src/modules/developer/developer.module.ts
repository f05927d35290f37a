import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { WalletAccountController } from './wallet-account.controller';
import { WalletAccountService } from './wallet-account.service';
import { WalletUsageService } from './wallet-usage.service';

/** The developer portal's backend (/api/v1): the signed-in wallet's account, API keys and usage history. */
@Module({
  imports: [AccountModule],
  controllers: [ApiKeysController, WalletAccountController],
  providers: [ApiKeysService, WalletAccountService, WalletUsageService],
})
export class DeveloperModule {}
