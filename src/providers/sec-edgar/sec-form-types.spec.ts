import { vendorFixture } from '../../../test/support/vendor-fixtures';
import { parseSubmissions } from './sec-edgar.schema';
import { isSecFormType } from './sec-form-types';

describe(isSecFormType.name, () => {
  it.each(['CIK0000320193', 'CIK0001465740'])('knows every form type of the recorded submissions of %s', (cik) => {
    const forms = new Set(parseSubmissions(vendorFixture('sec-edgar', `submissions.${cik}.json`)).recent.map((row) => row.form));
    expect([...forms].filter((form) => !isSecFormType(form))).toEqual([]);
  });

  it('takes any case and the amendment of a known form, and refuses a type EDGAR does not have', () => {
    expect(['10-k', 'Sc 13g/a', 'DEF 14A', '8-K/A'].map(isSecFormType)).toEqual([true, true, true, true]);
    expect(['XYZ', '10-K/A/A', '10-', 'XYZ/A'].map(isSecFormType)).toEqual([false, false, false, false]);
  });
});
