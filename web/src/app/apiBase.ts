/** Where the API lives, relative to the page (the gateway serves the app at / and the API at /api). */
export const API_BASE = '/api';
