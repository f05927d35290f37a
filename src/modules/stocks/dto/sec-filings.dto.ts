import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsOptional, Matches, ValidateBy } from 'class-validator';
import { IntegerParam } from '../../../common/validation/integer-param.decorator';
import { isSecFormType, SEC_FORM_TYPES } from '../../../providers/sec-edgar/sec-form-types';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const FORM = /^[A-Za-z0-9][A-Za-z0-9 /-]{0,19}$/;
export const MAX_FORMS = 20;
const KNOWN_FORMS = SEC_FORM_TYPES.join(', ');

/** Every form is one EDGAR knows; the message names the first that is not and lists the known ones. */
const KnownFormTypes = () =>
  ValidateBy({
    name: 'knownFormTypes',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every((form) => typeof form === 'string' && isSecFormType(form)),
      defaultMessage: (args) => {
        const unknown = (args?.value as string[]).find((form) => !isSecFormType(form));
        return `unknown form type "${unknown}"; known types (each also with /A for its amendment): ${KNOWN_FORMS}`;
      },
    },
  });

export class SecFilingsQueryDto {
  @ApiPropertyOptional({ format: 'date', pattern: DATE.source, description: 'Filed on or after this day (YYYY-MM-DD)' })
  @IsOptional()
  @Matches(DATE, { message: 'must be a date YYYY-MM-DD' })
  from?: string;

  @ApiPropertyOptional({ format: 'date', pattern: DATE.source, description: 'Filed on or before this day (YYYY-MM-DD); not before `from`' })
  @IsOptional()
  @Matches(DATE, { message: 'must be a date YYYY-MM-DD' })
  to?: string;

  @ApiPropertyOptional({
    type: 'string',
    description:
      `Comma-separated EDGAR form types to keep, e.g. \`10-K,10-Q,8-K\` (case-insensitive, at most ${MAX_FORMS}); all forms when absent. ` +
      `A type EDGAR does not know is 400 naming \`forms\`. Known types, each also with \`/A\` for its amendment: ${KNOWN_FORMS}.`,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((form) => form.trim()) : value))
  @ArrayMaxSize(MAX_FORMS)
  @Matches(FORM, { each: true, message: 'must be comma-separated form types such as 10-K,10-Q' })
  @KnownFormTypes()
  forms?: string[];

  @IntegerParam({ min: 1, max: 50, default: 20, description: 'Most filings returned (1-50, default 20), newest first.' })
  limit: number = 20;
}

export class SecFilingItemDto {
  @ApiProperty({ example: '10-K' }) formType: string;
  @ApiProperty({ example: '2025-10-31', description: 'YYYY-MM-DD' }) filingDate: string;
  @ApiProperty({ example: '2025-10-31T06:01:26.000Z', description: 'When EDGAR accepted it (ISO-8601)' }) acceptedDate: string;
  @ApiProperty({ example: '0000320193-25-000079' }) accessionNo: string;
  @ApiProperty({ example: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm' }) reportUrl: string;
  @ApiProperty({ example: '10-K', description: 'The primary document as EDGAR describes it (8-K: with its items)' }) description: string;
}

export class SecFilingsSourceDto {
  @ApiProperty({ example: 'sec' }) provider: string;
  @ApiProperty({ example: 'AAPL', description: 'The ticker asked; the registrant is found by its CIK' }) symbol: string;
  @ApiProperty({
    example: '2025-01-01',
    format: 'date',
    description: "The first day searched (YYYY-MM-DD): `from` as asked; without it, the day of the registrant's first filing on EDGAR",
  })
  from: string;
  @ApiProperty({ example: '2025-12-31', format: 'date', description: "The last day searched (YYYY-MM-DD): `to` as asked; without it, today's date (UTC)" })
  to: string;
  @ApiProperty({ example: '2026-11-24T12:00:00.000Z', description: 'When the filings were read from EDGAR' }) updatedAt: string;
}

export class SecFilingsDto {
  @ApiProperty({ type: SecFilingsSourceDto }) source: SecFilingsSourceDto;
  @ApiProperty({ type: [SecFilingItemDto], description: 'Newest first' }) items: SecFilingItemDto[];
  @ApiProperty({ example: 20, description: 'Items in this answer' }) count: number;
  @ApiProperty({ example: 20, description: 'The limit applied' }) limit: number;
}
