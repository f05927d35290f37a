/** Hyperliquid caps a perp order's builder fee at 0.1 %: 100 tenths of a basis point. */
export const MAX_OPC_FEE_TENTHS_BPS = 100;

/** A DNS label of 3-63 characters: lower-case letters and digits, hyphens only inside. */
export const OPC_SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** Names the service's own hosts use, or that users would mistake for them. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set(['www', 'api', 'app', 'portal', 'docs', 'admin', 'mail', 'status', 'static', 'cdn', 'auth']);
