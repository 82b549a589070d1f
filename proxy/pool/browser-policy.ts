// The Chromium managed policy of every pool browser (point 3 of sandbox.ts's list): written once at
// the pool's start and bound read-only into each sandbox, where no CDP client can change it.

/**
 * Schemes refused for every navigation, whoever starts it (CDP, window.open, links, redirects):
 *   file://           reads the host's files;
 *   view-source:      wraps any URL, file:// included;
 *   chrome://         internal pages: chrome://version shows the command line and profile path,
 *                     chrome://net-export and chrome://downloads touch files; no automation needs them;
 *   chrome-untrusted: the sandboxed halves of those pages;
 *   devtools://       the DevTools front-end, which can drive any DevTools endpoint it is pointed at.
 * Left allowed: about:blank and data: (automation lives on them), blob: and filesystem: (a page's
 * own, origin-scoped storage, never host files), http(s)/ws(s) (through the egress proxy).
 */
export const URL_BLOCKLIST = ['file://*', 'view-source:*', 'chrome://*', 'chrome-untrusted://*', 'devtools://*'];
/**
 * The two chrome:// pages headless Chromium opens by itself: its first tab and the omnibox's
 * (hidden) WebUI. Blocked, they turn into error pages that CDP clients list as extra pages.
 */
export const URL_ALLOWLIST = ['chrome://new-tab-page-third-party', 'chrome://omnibox-popup.top-chrome'];

/** The Chromium managed policy every pool browser gets (bound read-only into its sandbox). */
export function browserPolicy(proxyUrl: string): Record<string, unknown> {
  return {
    URLBlocklist: URL_BLOCKLIST,
    URLAllowlist: URL_ALLOWLIST,
    // The egress proxy as a *managed* setting: it also overrides a proxy a CDP client asks for
    // (Target.createBrowserContext({ proxyServer }) is a user-level setting), so no context escapes it.
    ProxySettings: { ProxyMode: 'fixed_servers', ProxyServer: proxyUrl, ProxyBypassList: '<-loopback>' },
    // WebRTC may use UDP only through a proxy, i.e. not at all: no way around the egress proxy.
    // (The policy is `WebRtcIPHandling`; Chromium 156 rejects `WebRtcIPHandlingPolicy` as unknown.)
    WebRtcIPHandling: 'disable_non_proxied_udp',
    // Nothing written outside the profile on a page's behalf, no file pickers, no File System Access.
    DownloadRestrictions: 3,
    AllowFileSelectionDialogs: false,
    DefaultFileSystemReadGuardSetting: 2,
    DefaultFileSystemWriteGuardSetting: 2,
    // 1 = allowed: 2 would close the remote-debugging port, i.e. CDP, the pool's whole protocol.
    DeveloperToolsAvailability: 1,
    BrowserSignin: 0,
    SyncDisabled: true,
    MetricsReportingEnabled: false,
  };
}
