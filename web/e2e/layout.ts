// Layout measurements for the walkthrough: what a designer saw wrong in the
// screenshots, as numbers the test can hold the screens to. Selectors name what the user sees (the
// main heading, the filters toggle, the page-size select), not our class names.
import type { Locator, Page } from 'playwright-core';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`no box for ${selector}`);
  return { top: found.y, bottom: found.y + found.height, left: found.x, right: found.x + found.width, width: found.width, height: found.height };
}

/** Computed font size (px) and colour of the element. */
export async function fontOf(element: Locator): Promise<{ size: number; color: string }> {
  return element.first().evaluate((el) => {
    const style = getComputedStyle(el);
    return { size: parseFloat(style.fontSize), color: style.color };
  });
}

/** Header: Log out against the nav links beside it. */
export async function headerLinks(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  return { link: await fontOf(nav.getByRole('link', { name: 'User Settings' })), logout: await fontOf(nav.getByRole('button', { name: 'Log out' })) };
}

/** Sidebar: the switcher's tooltip and the space between the role line and the first group caption. */
export async function sidebar(page: Page) {
  const role = await box(page, '.sidebar-role');
  const firstCaption = await box(page, '.sidebar-group .sidebar-caption');
  return { switcherTitle: await page.locator('#server-switcher').getAttribute('title'), roleToCaption: firstCaption.top - role.bottom };
}

/** Dashboard: gaps under the title and welcome line; how far the stat row falls short of the charts' right edge. */
export async function dashboard(page: Page) {
  const title = await box(page, '.app-main :is(h1, h2)');
  const welcome = await box(page, '.app-main .ant-typography-secondary');
  const cards = await page.locator('[data-testid^="stat-"]').evaluateAll((stats) => stats.map((el) => el.closest('.ant-card')?.getBoundingClientRect() ?? el.getBoundingClientRect()));
  const statsTop = Math.min(...cards.map((c) => c.top));
  const lastStatRight = Math.max(...cards.map((c) => c.right));
  const chart = await box(page, '.chart-card');
  return { titleToWelcome: welcome.top - title.bottom, welcomeToStats: statsTop - welcome.bottom, statRowShortBy: chart.right - lastStatRight };
}

/** Logs toolbar with the filters open: the toggle's width and whether Per page stays on its row. */
export async function logsToolbar(page: Page) {
  const toggle = await box(page, 'button[aria-controls="log-filters"]');
  const pageSize = await box(page, '#page-size');
  const grid = await box(page, '#log-filters');
  const main = await box(page, '.app-main');
  const pageSizeMiddle = pageSize.top + pageSize.height / 2;
  return {
    toggleWidth: toggle.width,
    mainWidth: main.width,
    pageSizeOnToggleRow: pageSizeMiddle > toggle.top && pageSizeMiddle < toggle.bottom,
    filtersBelowToggle: grid.top >= toggle.bottom,
  };
}

/** The page title's size and how many lines it takes. */
export async function pageTitle(page: Page) {
  return page.locator('.app-main :is(h1, h2)').first().evaluate((el) => {
    const style = getComputedStyle(el);
    return { size: parseFloat(style.fontSize), lines: Math.round(el.getBoundingClientRect().height / parseFloat(style.lineHeight)) };
  });
}
