/**
 * Runs once before any test file: unpacks the Chromium of `@sparticuz/chromium` into the temp folder, so that
 * browser test files running side by side never race to unpack (and launch) a half-written binary.
 */
export default async function setup() {
  if (process.env.CHROMIUM_PATH) return;
  const chromium = (await import('@sparticuz/chromium')).default;
  await chromium.executablePath();
}
