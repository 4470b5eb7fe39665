// Shapes of the API answers the web app reads (spec 000 §3, 001 §3).
export type ServerRole = 'owner' | 'admin' | 'user';
export type SiteRole = 'staff' | 'moderator' | 'admin' | 'superadmin' | 'user';

export interface ServerSummary {
  id: string;
  name: string;
  role?: string;
}

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  role: string;
  two_factor_enabled: boolean;
}

export interface MeResponse {
  user: CurrentUser;
  servers: ServerSummary[];
}

export type LoginResponse =
  | { token: string; servers?: ServerSummary[]; twofa_required?: false }
  | { twofa_required: true; pre_token: string; token?: undefined };

export interface ServerUsage {
  used: number;
  limit: number;
  reset?: string | number | null;
  tierLabel?: string;
  retentionDays?: number;
  maxBackups?: number;
  maxWebhooks?: number;
}

export interface LogEntry {
  id: string;
  created_at: string;
  level: string;
  type: string;
  resource: string;
  message: string;
  metadata?: Record<string, unknown> | null;
  log_type: 'text' | 'photo';
  image_path?: string | null;
  thumb_path?: string | null;
}

export interface LevelColor {
  bg_color: string;
  text_color: string;
}
export type ColorMap = Record<string, LevelColor>;

export interface LogFilters {
  search: string;
  type: string;
  level: string;
  resource: string;
  dateFrom: string;
  dateTo: string;
}

export const EMPTY_FILTERS: LogFilters = { search: '', type: '', level: '', resource: '', dateFrom: '', dateTo: '' };
