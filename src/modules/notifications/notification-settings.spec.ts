import { DEFAULT_NOTIFICATION_SETTINGS, withDefaults } from './notification-settings';

describe(withDefaults.name, () => {
  it('serves the defaults to an account that saved nothing', () => {
    expect(withDefaults(null)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('keeps the saved fields and reads a null (a reset) or a mistyped one as its default', () => {
    const stored = { priceMovePercent: 2.5, liquidationRiskEnabled: false, liquidationDistancePercent: null, priceMoveEnabled: 'yes' } as never;
    expect(withDefaults(stored)).toEqual({
      priceMoveEnabled: true,
      priceMovePercent: 2.5,
      priceMoveWindowMinutes: 60,
      liquidationRiskEnabled: false,
      liquidationDistancePercent: 5,
      fundingRateEnabled: true,
      fundingRateAprPercent: 50,
    });
  });

  it('keeps a saved window and reads one no longer offered as the default', () => {
    expect(withDefaults({ priceMoveWindowMinutes: 240 }).priceMoveWindowMinutes).toBe(240);
    expect(withDefaults({ priceMoveWindowMinutes: 30 }).priceMoveWindowMinutes).toBe(DEFAULT_NOTIFICATION_SETTINGS.priceMoveWindowMinutes);
  });
});
