import type { PublicConfig } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';

/** GET /public-config: the installation's settings the public pages show (served by the gateway, no sign-in). */
export const siteApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    publicConfig: build.query<PublicConfig, undefined>({ query: () => '/public-config' }),
  }),
});

export const { usePublicConfigQuery } = siteApi;
