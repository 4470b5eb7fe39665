// What each screen downloads before it can show (docs/DECISIONS.md "First-load budgets";
// the byte figures are `npm run bench -- web-first-load`). Builds the web app as the gateway serves it and
// follows, per screen, the chunks the entry and the screen's page module import statically: what a cold
// load needs before the screen renders. These hold the split in place: a static antd import in the
// shell, or a page using antd's Card again, shows up here as the module that came back.
import { resolve } from 'node:path';
import { build, type Plugin, type Rollup } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

const WEB = `${resolve(import.meta.dirname, '..')}/`;

interface Chunk {
  readonly imports: readonly string[];
  readonly modules: readonly string[];
  readonly facade: string | null;
  readonly isEntry: boolean;
}

/** Captures every chunk's static imports and modules (ids relative to web/, node_modules/ for packages). */
function chunkGraph(into: Map<string, Chunk>): Plugin {
  const name = (id: string) => id.replace(/^.*\/node_modules\//, 'node_modules/').replace(WEB, '');
  return {
    name: 'test-chunk-graph',
    generateBundle(_options, bundle: Rollup.OutputBundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        into.set(output.fileName, {
          imports: output.imports,
          modules: Object.entries(output.modules)
            .filter(([, module]) => module.renderedLength > 0)
            .map(([id]) => name(id)),
          facade: output.facadeModuleId === null ? null : name(output.facadeModuleId),
          isEntry: output.isEntry,
        });
      }
    },
  };
}

const chunks = new Map<string, Chunk>();

/** Every module a cold load of the page module `page` (relative to web/) runs before the page shows. */
function firstLoad(page: string): string[] {
  const entry = [...chunks].find(([, chunk]) => chunk.isEntry)?.[0];
  const pageChunk = [...chunks].find(([, chunk]) => chunk.facade === page)?.[0];
  if (entry === undefined || pageChunk === undefined) throw new Error(`no entry chunk or no chunk for ${page}`);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
  };
  visit(entry);
  visit(pageChunk);
  return [...seen].flatMap((file) => chunks.get(file)?.modules ?? []);
}

const matching = (modules: string[], pattern: RegExp) => modules.filter((id) => pattern.test(id));

const PAGES = {
  landing: 'src/features/landing/LandingPage.tsx',
  info: 'src/features/landing/InfoPage.tsx',
  legal: 'src/features/landing/LegalPages.tsx',
  apiDocs: 'src/features/docs/ApiDocsPages.tsx',
  featureDocs: 'src/features/docs/FeatureDocsPages.tsx',
  gameDocs: 'src/features/docs/GamesPages.tsx',
  contact: 'src/features/landing/ContactPage.tsx',
  login: 'src/features/auth/LoginPage.tsx',
  dashboard: 'src/features/dashboard/DashboardPage.tsx',
  logs: 'src/features/logs/LogsPage.tsx',
  photologs: 'src/features/photologs/PhotoLogsPage.tsx',
  settings: 'src/features/user/UserSettingsPage.tsx',
  createServer: 'src/features/servers/CreateServerPage.tsx',
} as const;

/** antd's form, input and tabs code and what only they bring (validation, text areas, menus). */
const FORM_INPUT_TABS =
  /node_modules\/(antd\/es\/(form\/(?!validateMessagesContext)|input\/|tabs\/|card\/|menu\/|dropdown\/)|@rc-component\/(form|async-validator|input|textarea|tabs|menu|dropdown)\/)/;
const CHARTS = /node_modules\/(echarts|echarts-for-react|zrender)\//;
const TOASTS = /node_modules\/(antd\/es\/message\/|@rc-component\/notification\/)/;

beforeAll(async () => {
  await build({
    root: WEB,
    configFile: `${WEB}vite.config.ts`,
    mode: 'production',
    logLevel: 'silent',
    build: { write: false },
    plugins: [chunkGraph(chunks)],
  });
}, 120_000); // builds the whole web app with vite

describe('first load split', () => {
  it('the landing page loads no antd form, input, tabs or card code, no charts and no toasts', () => {
    const modules = firstLoad(PAGES.landing);
    expect(matching(modules, FORM_INPUT_TABS)).toEqual([]);
    expect(matching(modules, CHARTS)).toEqual([]);
    expect(matching(modules, TOASTS)).toEqual([]);
    expect(matching(modules, /node_modules\/antd\/es\/typography\//)).toEqual([]);
  });

  it('the public information pages load no antd component code beyond the shell', () => {
    for (const page of [PAGES.info, PAGES.legal, PAGES.apiDocs, PAGES.featureDocs, PAGES.gameDocs]) {
      const modules = firstLoad(page);
      expect(matching(modules, FORM_INPUT_TABS), page).toEqual([]);
      expect(matching(modules, /node_modules\/antd\/es\/(typography|grid|row|col)\//), page).toEqual([]);
    }
  });

  it('no public page loads a signed-in screen or its libraries', () => {
    for (const page of [PAGES.landing, PAGES.info, PAGES.legal, PAGES.apiDocs, PAGES.featureDocs, PAGES.gameDocs, PAGES.contact, PAGES.login]) {
      const modules = firstLoad(page);
      expect(matching(modules, CHARTS), page).toEqual([]);
      expect(matching(modules, /src\/features\/(dashboard|logs|photologs|user|servers\/CreateServerPage)/), page).toEqual([]);
    }
  });

  it("no screen loads antd's Card (it brings Tabs, Menu and Dropdown); Panel draws cards", () => {
    for (const page of Object.values(PAGES)) {
      expect(matching(firstLoad(page), /node_modules\/(antd\/es\/(card|tabs)\/|@rc-component\/tabs\/)/), page).toEqual([]);
    }
  });

  it('the dashboard loads only the chart parts it draws: bar charts, grid, legend, tooltip, canvas', () => {
    const modules = firstLoad(PAGES.dashboard);
    // Each chart type registers through its own install module; the helpers are shared.
    expect(matching(modules, /node_modules\/echarts\/lib\/chart\/[^/]+\/install\.js$/)).toEqual(['node_modules/echarts/lib/chart/bar/install.js']);
    expect(matching(modules, /node_modules\/(echarts\/lib\/renderer\/installSVGRenderer|zrender\/lib\/svg\/Painter)/)).toEqual([]);
    expect(matching(modules, /node_modules\/echarts\/lib\/component\/(dataZoom|visualMap|toolbox|brush|timeline|geo|polar|radar|calendar|graphic|markPoint|markLine|markArea|title|dataset)\//)).toEqual([]);
  });

  it('the log screens show their list before any chart code: the histogram chart loads on its own, with the one echarts registration', () => {
    for (const page of [PAGES.logs, PAGES.photologs]) expect(matching(firstLoad(page), CHARTS), page).toEqual([]);
    const histogram = firstLoad('src/features/logs/HistogramChart.tsx');
    expect(matching(histogram, /node_modules\/echarts\/lib\/chart\/[^/]+\/install\.js$/)).toEqual(['node_modules/echarts/lib/chart/bar/install.js']);
    // One chunk holds echarts' core for the dashboard, the admin charts and the histogram alike.
    const withCore = [...chunks.values()].filter((chunk) => chunk.modules.includes('node_modules/echarts/lib/core/echarts.js'));
    expect(withCore).toHaveLength(1);
  });

  it('the toast code loads after the first screen, not with it', () => {
    for (const page of Object.values(PAGES)) expect(matching(firstLoad(page), TOASTS), page).toEqual([]);
    const host = [...chunks.values()].find((chunk) => chunk.facade === 'src/app/ToastHost.tsx');
    expect(host && matching([...host.modules], /node_modules\/antd\/es\/message\//).length).toBeGreaterThan(0);
  });
});
