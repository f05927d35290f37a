import { Module } from '@nestjs/common';
import { AccountCreditsModule } from '../billing/billing.public';
import { AccountAdminService } from './account-admin.service';
import { AccountController } from './account.controller';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import { ApiCallerCache } from './api-caller.cache';

@Module({
  imports: [AccountCreditsModule],
  controllers: [AccountController],
  providers: [AccountRepository, AccountService, AccountAdminService, ApiCallerCache],
  exports: [ApiCallerCache, AccountAdminService],
})
export class AccountModule {}
