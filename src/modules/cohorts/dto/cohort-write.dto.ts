import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { WalletAddress } from '../../../common/validation/wallet-address.decorator';
import { MAX_ADDRESSES_PER_COHORT, MAX_COHORT_NAME_LENGTH, MAX_TAGS_PER_ADDRESS, TAG_PATTERN } from '../cohort-limits';

const EXAMPLE_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A cohort name: 1 to 64 characters after trimming. */
function CohortName() {
  return (target: object, property: string) => {
    Transform(trim)(target, property);
    IsString()(target, property);
    MinLength(1, { message: `${property} must not be empty` })(target, property);
    MaxLength(MAX_COHORT_NAME_LENGTH)(target, property);
  };
}

export class CohortMemberInputDto {
  @ApiProperty({ example: EXAMPLE_ADDRESS, description: '0x and 40 hex digits: lower or upper case, or EIP-55 checksummed; stored lower-case' })
  @WalletAddress()
  address: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['desk-a', 'whale'],
    description: `Up to ${MAX_TAGS_PER_ADDRESS} tags of 1 to 32 letters, digits or - _ . : ; given, they replace the member's tags, omitted, they are kept`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_ADDRESS)
  @IsString({ each: true })
  @Matches(TAG_PATTERN, { each: true, message: 'tags must be 1 to 32 letters, digits or - _ . : (each)' })
  tags?: string[];
}

export class CreateCohortDto {
  @ApiProperty({ example: 'Whales I follow', description: `1 to ${MAX_COHORT_NAME_LENGTH} characters after trimming; unique per wallet ignoring case` })
  @CohortName()
  name: string;

  @ApiPropertyOptional({
    type: [CohortMemberInputDto],
    maxItems: MAX_ADDRESSES_PER_COHORT,
    description: `Initial members (at most ${MAX_ADDRESSES_PER_COHORT})`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ADDRESSES_PER_COHORT)
  @ValidateNested({ each: true })
  @Type(() => CohortMemberInputDto)
  addresses?: CohortMemberInputDto[];
}

export class RenameCohortDto {
  @ApiProperty({ example: 'Desk A', description: `1 to ${MAX_COHORT_NAME_LENGTH} characters after trimming; unique per wallet ignoring case` })
  @CohortName()
  name: string;
}

export class AddCohortAddressesDto {
  @ApiProperty({
    type: [CohortMemberInputDto],
    minItems: 1,
    maxItems: MAX_ADDRESSES_PER_COHORT,
    description: `1 to ${MAX_ADDRESSES_PER_COHORT} members to add, or whose tags to replace; adding a member twice changes nothing`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ADDRESSES_PER_COHORT)
  @ValidateNested({ each: true })
  @Type(() => CohortMemberInputDto)
  addresses: CohortMemberInputDto[];
}

export class RemoveCohortAddressesDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_ADDRESSES_PER_COHORT,
    example: [EXAMPLE_ADDRESS],
    description: `1 to ${MAX_ADDRESSES_PER_COHORT} addresses; ones not in the cohort are ignored`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ADDRESSES_PER_COHORT)
  @WalletAddress({ each: true })
  addresses: string[];
}
