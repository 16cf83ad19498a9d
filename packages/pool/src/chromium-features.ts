// Chromium features the service switches off, on top of the ones Playwright switches off.
//
// Chromium reads only the last --disable-features switch on its command line, and
// Playwright passes its own before the caller's arguments: a second switch would silently
// put Playwright's features back on (HTTPS upgrades, third-party storage partitioning, ...).
// So the service passes one switch holding both lists. Playwright's list is a fact about the
// playwright-core version we depend on (its chromiumSwitches.ts);
// tests/chromium-features.test.ts launches stock Playwright, reads the switch it really
// passes, and fails when this copy falls behind an upgrade.

/** What playwright-core 1.65 disables (its chromiumSwitches.ts). */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * DeferRendererTasksAfterInput (on by default since ~M121): after a click or key press the
 * renderer holds back the page's ordinary tasks (timers, messages) until it has produced
 * the next frame, so a page is painted sooner for a person watching. Nobody watches ours,
 * and an action's settle look is such a task (it must see what a timer of 0 or the next
 * frame starts): held back, it cost ~8 ms of every click (a frame's phase, 1.9 ms without;
 * bench/README.md, "A page task after a click"). Pages run their tasks as Chromium did
 * before the feature; none is dropped or reordered among themselves.
 *
 * AutofillServerCommunication: Chromium asks Google's autofill server about every form a page
 * shows (content-autofill.googleapis.com). The egress proxy refuses it, and each refusal was
 * an egress_denied event in the session's stream that no page caused
 * (tests/security/egress-browser-noise.test.ts).
 */
/*
 * WebUIOmniboxPopup, WebUIOmniboxAimPopup: from Chromium 156 (Debian 156.0.8078.108) the
 * address bar's suggestion popup is a WebUI page (chrome://omnibox-popup.top-chrome/), and
 * every browser window preloads it in a renderer of its own — one window per context's page
 * in headless mode. Nobody types into a headless omnibox; the renderer ran its JS for each
 * lease (a launch and five contexts: 17 processes and 7.4 s of CPU with it, 12 and 5.4 s
 * without; tests/chromium-features.test.ts counts those pages).
 */
export const ARIADNE_DISABLED_FEATURES = ['DeferRendererTasksAfterInput', 'AutofillServerCommunication', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

/** The one --disable-features switch a pool browser is launched with. */
export function disableFeaturesSwitch(): string {
  const all = [...new Set<string>([...PLAYWRIGHT_DISABLED_FEATURES, ...ARIADNE_DISABLED_FEATURES])];
  return `--disable-features=${all.join(',')}`;
}
