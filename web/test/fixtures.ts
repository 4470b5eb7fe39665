// API answers as the contract describes them (@skald/contracts/api), so a mocked server answers what the
// real one does and a contract change shows up here as a type error. Hostile-content tests build their
// own off-contract answers on purpose.
import type { AdminServerDetail, ApiLog, DashboardStats, LevelColors, LevelList, MeAnswer, PhotoLogPage, ServerRole, ServerUsage, SiteRole } from '@skald/contracts/api';

/** The staff detail of the Pro server 'Alpha' (s1), as GET /admin/servers/:id answers it. */
export function adminServerDetail(over: Partial<AdminServerDetail> = {}): AdminServerDetail {
  return {
    id: 's1',
    name: 'Alpha',
    tier: 'pro',
    tierInfo: { label: 'Pro', limit: 600000, retentionDays: 180, maxPhotoLogs: 6000, maxServerUsers: 35, maxExportsPerMonth: 150, maxWebhooks: 20, maxBackups: 20 },
    created_at: '2026-01-01T00:00:00.000Z',
    is_suspended: false,
    userCount: 1,
    ...over,
  };
}

export function apiLog(over: Partial<ApiLog> = {}): ApiLog {
  return {
    id: 'l1',
    created_at: '2026-01-02T10:00:00Z',
    received_at: '2026-01-02T10:00:00Z',
    level: 'info',
    type: 'Join',
    resource: 'core',
    message: 'message',
    metadata: {},
    log_type: 'text',
    image_path: null,
    thumb_path: null,
    ...over,
  };
}

/** One page that holds every matching photo; `stored` counts the server's photos whatever the filters. */
export function photoLogPage(photologs: ApiLog[], maxPhotoLogs = 10, stored = photologs.length): PhotoLogPage {
  return { photologs, maxPhotoLogs, total: photologs.length, totalCapped: false, stored };
}

/** Every level gets a plain pair unless the test names its own. */
export function levelColors(over: Partial<LevelColors> = {}): LevelColors {
  const plain = { bg_color: '#eeeeee', text_color: '#111111' };
  return { info: plain, warn: plain, error: plain, fatal: plain, debug: plain, ...over };
}

export const LEVELS: LevelList = { types: ['info', 'warn', 'error', 'fatal', 'debug'] };

export function serverUsage(over: Partial<ServerUsage> = {}): ServerUsage {
  return {
    used: 1,
    limit: 10,
    reset: '2026-01-02T11:00:00.000Z',
    tierLabel: 'Free',
    retentionDays: 7,
    maxBackups: 0,
    maxWebhooks: 0,
    maxPhotoLogs: 10,
    maxAlertRules: 0,
    maxCases: 3,
    caseBytes: 0,
    ...over,
  };
}

export function meAnswer({ role = 'user', serverRole = 'owner', twoFactor = false }: { role?: SiteRole; serverRole?: ServerRole; twoFactor?: boolean } = {}): MeAnswer {
  return {
    user: { id: 'u1', username: 'ann', email: 'a@x.io', role, two_factor_enabled: twoFactor },
    servers: [{ id: 's1', name: 'Alpha', role: serverRole }],
  };
}

export function dashboardStats(over: Partial<DashboardStats> = {}): DashboardStats {
  return {
    totals: { all: 12, text: 10, photo: 2 },
    last7Days: [{ date: '2026-01-01', text: 10, photo: 2 }],
    currentWeekTotal: 12,
    previousWeekTotal: 16,
    averagePerDay: 2,
    trend: -25,
    perType: [{ name: 'Join', text: 10, photo: 2 }],
    perLevel: [],
    perResource: [],
    perTypeOther: { names: 0, text: 0, photo: 0 },
    perLevelOther: { names: 0, text: 0, photo: 0 },
    perResourceOther: { names: 0, text: 0, photo: 0 },
    recentPhotos: [],
    ...over,
  };
}
