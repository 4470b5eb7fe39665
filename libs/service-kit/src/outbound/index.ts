export { createOutboundGuard, OutboundFailed, OutboundRefused } from './guard.ts';
export type { HostResolver, OutboundFailureCode, OutboundGuard, OutboundGuardOptions, ResolvedAddress } from './guard.ts';
export { parseOutboundUrl, sendOutbound } from './send.ts';
export type { OutboundRequest, OutboundResponse } from './send.ts';
export { parseAllowList } from './address-policy.ts';
