import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IntegerParam } from '../validation/integer-param.decorator';
import { CURSOR_MAX_LENGTH } from './cursor-codec';
import { OFFSET_ROW_CAP } from './offset-cap';

/** Per-endpoint page-size policy: the contract lets each endpoint choose its own default and bounds. */
export interface PageQueryOptions {
  defaultLimit: number;
  maxLimit: number;
  minLimit?: number;
}

/**
 * Shape every paged query shares, so services can accept any endpoint's query. Abstract because `limit`
 * has no bounds here: endpoints extend PageQuery({...}) / CursorPageQuery({...}) instead.
 * Query strings arrive as strings; @IntegerParam takes plain decimal digits only and says what is wrong otherwise.
 */
export abstract class PageQueryDto {
  @IntegerParam({ min: 1, default: 1, description: `1-based page number. (page - 1) × limit must stay below ${OFFSET_ROW_CAP}.` })
  page: number = 1;

  /** Set and validated by the PageQuery() subclass, which knows the endpoint's bounds. */
  limit!: number;
}

/** Query of cursor-capable endpoints (an interface: the runtime class comes from CursorPageQuery()). */
export interface CursorPageQueryDto extends PageQueryDto {
  cursor?: string;
}

export type PageQueryClass = new () => PageQueryDto;
export type CursorPageQueryClass = new () => CursorPageQueryDto;

/**
 * DTO base for an offset-paged endpoint: `class HoldersQueryDto extends PageQuery({ defaultLimit: 50, maxLimit: 500 }) {}`.
 * A factory rather than decorator arguments because decorators need the bounds at class-definition time.
 */
export function PageQuery(options: PageQueryOptions): PageQueryClass {
  const { defaultLimit, maxLimit, minLimit } = checkOptions(options);

  class BoundedPageQueryDto extends PageQueryDto {
    @IntegerParam({ min: 1, default: 1, documentedMax: lastPageAt(maxLimit), description: pageDescription(maxLimit) })
    override page: number = 1;

    @IntegerParam({ min: minLimit, max: maxLimit, default: defaultLimit, description: `Page size (${minLimit}-${maxLimit}, default ${defaultLimit}).` })
    override limit: number = defaultLimit;
  }
  return BoundedPageQueryDto;
}

/** Same as PageQuery plus the optional opaque `cursor` (its content is checked by CursorCodec.decode). */
export function CursorPageQuery(options: PageQueryOptions): CursorPageQueryClass {
  const { defaultLimit, maxLimit, minLimit } = checkOptions(options);

  class BoundedCursorPageQueryDto extends PageQuery(options) implements CursorPageQueryDto {
    // Cursor rule 3: with a cursor, page is ignored, so it is not validated either (page=0 beside a cursor is no error).
    // Every validator is restated: class-validator drops a parent's validators of each kind a subclass declares.
    @ValidateIf((query: CursorPageQueryDto) => query.cursor === undefined)
    @IntegerParam({
      min: 1,
      default: 1,
      documentedMax: lastPageAt(maxLimit),
      description: `1-based page number; ignored (not even validated) when a cursor is given. Without one: ${pageDescription(maxLimit)}`,
    })
    override page: number = 1;

    // Restated whole, not just the description: a partial @ApiProperty replaces the parent's and loses `type: integer`.
    @IntegerParam({
      min: minLimit,
      max: maxLimit,
      default: defaultLimit,
      description: `Page size (${minLimit}-${maxLimit}, default ${defaultLimit}); keep it unchanged while following cursors.`,
    })
    override limit: number = defaultLimit;

    @ApiPropertyOptional({
      type: 'string',
      maxLength: CURSOR_MAX_LENGTH,
      description: "Opaque token from the previous page's nextCursor. When present, page is ignored; keep the other parameters and limit unchanged.",
    })
    @IsOptional()
    @IsString()
    @MaxLength(CURSOR_MAX_LENGTH)
    cursor?: string;
  }
  return BoundedCursorPageQueryDto;
}

/** The last page offset paging reaches with `limit`: its first row must sit below the cap. */
function lastPageAt(limit: number): number {
  return Math.ceil(OFFSET_ROW_CAP / limit);
}

/**
 * The real bound depends on limit, which OpenAPI cannot say: the document's `maximum` is the last page at the
 * largest limit (valid with any limit), and the text gives the rule.
 */
function pageDescription(maxLimit: number): string {
  return (
    `1-based page number. Offset paging is capped at ${OFFSET_ROW_CAP} rows: (page - 1) × limit must stay below ${OFFSET_ROW_CAP}, ` +
    `so the last page is ${lastPageAt(maxLimit)} at limit ${maxLimit} and ceil(${OFFSET_ROW_CAP} / limit) at smaller limits; a page past it is 400 naming page.`
  );
}

/** Misconfigured bounds are a programming error: fail when the module loads, not on a request. */
function checkOptions(options: PageQueryOptions): Required<PageQueryOptions> {
  const { defaultLimit, maxLimit, minLimit = 1 } = options;
  const ok = [defaultLimit, maxLimit, minLimit].every(Number.isSafeInteger) && minLimit >= 1 && minLimit <= defaultLimit && defaultLimit <= maxLimit;
  if (!ok) {
    throw new Error(`PageQuery: need integers 1 <= minLimit <= defaultLimit <= maxLimit, got ${JSON.stringify(options)}`);
  }
  return { defaultLimit, maxLimit, minLimit };
}
