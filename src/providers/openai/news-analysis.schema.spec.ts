import { DIRECTIONS, TIME_HORIZONS } from '../analysis-provider';
import { NEWS_ANALYSIS_FORMAT, NEWS_TRANSLATION_FORMAT, TRANSLATED_FIELDS } from './news-analysis.schema';

type Schema = Record<string, any>;

/** Every object schema in the tree, the root included. */
function objectSchemas(schema: Schema): Schema[] {
  const nested = Object.values<Schema>(schema.properties ?? {}).flatMap(objectSchemas);
  return schema.type === 'object' ? [schema, ...nested] : nested;
}

/** Keywords every server's constrained decoder honours; anything else is stated in a description and checked by us. */
const PORTABLE_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'enum', 'description']);

function keywordsOf(schema: Schema): string[] {
  return [...Object.keys(schema), ...Object.values<Schema>(schema.properties ?? {}).flatMap(keywordsOf)];
}

describe.each([
  ['analysis', NEWS_ANALYSIS_FORMAT],
  ['translation', NEWS_TRANSLATION_FORMAT],
])('the %s response format', (_name, sut) => {
  const schema = sut.json_schema.schema as Schema;

  it('is a strict json_schema with a name the API accepts', () => {
    expect(sut.type).toBe('json_schema');
    expect(sut.json_schema.strict).toBe(true);
    expect(sut.json_schema.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('requires every property and allows no other, at every level', () => {
    const objects = objectSchemas(schema);
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      expect([...object.required].sort()).toEqual(Object.keys(object.properties).sort());
      expect(object.additionalProperties).toBe(false);
    }
  });

  it('uses only keywords every OpenAI-compatible server honours', () => {
    expect(keywordsOf(schema).filter((keyword) => !PORTABLE_KEYWORDS.has(keyword))).toEqual([]);
  });
});

describe('NEWS_ANALYSIS_FORMAT', () => {
  const properties = (NEWS_ANALYSIS_FORMAT.json_schema.schema as Schema).properties;

  it('asks for the fields of the English analysis', () => {
    expect(Object.keys(properties)).toEqual([
      'title',
      'coreSummary',
      'direction',
      'affectedAssets',
      'impactLogic',
      'timeHorizon',
      'risksAndWatchlist',
      'sentiment',
    ]);
    expect(properties.sentiment.type).toBe('number');
  });

  it('restricts direction and horizon to the contract enums', () => {
    expect(properties.direction.enum).toEqual([...DIRECTIONS]);
    expect(properties.timeHorizon.enum).toEqual([...TIME_HORIZONS]);
  });
});

describe('NEWS_TRANSLATION_FORMAT', () => {
  const properties = (NEWS_TRANSLATION_FORMAT.json_schema.schema as Schema).properties;

  it('asks for the translated text fields only: direction stays English and is not asked for', () => {
    expect(Object.keys(properties)).toEqual([...TRANSLATED_FIELDS]);
    expect(properties.direction).toBeUndefined();
  });

  it('asks for the horizon as free text, since it is written as words of the target language', () => {
    expect(properties.timeHorizon).toEqual({ type: 'string', description: expect.stringContaining('words') });
  });
});
