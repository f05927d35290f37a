/**
 * EDGAR's form types as its submissions list them (upper case): the filings of listed companies, their
 * insiders, holders and funds. An amendment is the form with `/A` ("10-K/A"), so only base forms are listed.
 * A `forms` filter naming none of these would match nothing, so it is refused instead of answering empty.
 */
// prettier-ignore
export const SEC_FORM_TYPES: readonly string[] = [
  // Periodic and current reports
  '10-K', '10-K405', '10-KT', '10-Q', '10-QT', '10-D', '8-K', '8-K12B', '8-K12G3', '6-K', '20-F', '40-F', '11-K', '18-K', 'ARS',
  'NT 10-K', 'NT 10-Q', 'NT 20-F', 'NT 11-K', '10-12B', '10-12G', 'SD', 'IRANNOTICE',
  // Registrations, prospectuses and offerings
  'S-1', 'S-1MEF', 'S-3', 'S-3ASR', 'S-3D', 'S-3MEF', 'S-4', 'S-4MEF', 'S-4 POS', 'S-8', 'S-8 POS', 'S-11', 'F-1', 'F-3', 'F-3ASR',
  'F-4', 'F-6', 'F-10', 'F-X', 'POS AM', 'POSASR', 'POS EX', '424A', '424B1', '424B2', '424B3', '424B4', '424B5', '424B7', '424B8',
  '424H', '425', 'FWP', 'EFFECT', 'RW', 'AW', 'DRS', 'DRSLTR', 'D', '1-A', '1-K', '1-SA', '1-U', '253G2', 'C', 'C-U', 'CB', '305B2',
  'ABS-15G', 'ABS-EE', 'SF-3',
  // Proxies and tender offers
  'DEF 14A', 'DEF 14C', 'DEFA14A', 'DEFA14C', 'DEFM14A', 'DEFM14C', 'DEFR14A', 'DEFC14A', 'DEFN14A', 'DFAN14A', 'PRE 14A',
  'PRE 14C', 'PREM14A', 'PREC14A', 'PRRN14A', 'PX14A6G', 'PX14A6N', 'SC TO-I', 'SC TO-T', 'SC TO-C', 'SC 14D9', 'SC 14D9C',
  'SC 13E3', 'SC 13E4',
  // Ownership: insiders and large holders
  '3', '4', '5', '144', 'SC 13D', 'SC 13G', 'SCHEDULE 13D', 'SCHEDULE 13G', '13F-HR', '13F-NT', '13H',
  // Exchange listing and deregistration
  '8-A12B', '8-A12G', '15-12B', '15-12G', '15-15D', '25', '25-NSE', 'CERT', 'CERTNYS', 'CERTNAS', 'CERTARCA',
  // Funds
  'N-CSR', 'N-CSRS', 'N-Q', 'N-PX', 'N-CEN', 'NPORT-P', 'N-1A', 'N-2', 'N-14', '485APOS', '485BPOS', '497', '497K', '40-APP',
  // Correspondence
  'CORRESP', 'UPLOAD', 'NO ACT',
];

const KNOWN = new Set(SEC_FORM_TYPES);
const AMENDMENT = '/A';

/** Whether EDGAR knows `form` (any case), as itself or as an amendment of a known form. */
export function isSecFormType(form: string): boolean {
  const upper = form.toUpperCase();
  return KNOWN.has(upper) || (upper.endsWith(AMENDMENT) && KNOWN.has(upper.slice(0, -AMENDMENT.length)));
}
