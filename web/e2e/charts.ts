// Reading the dashboard's bar charts the way a user does: the bars are drawn on a canvas, so the walkthrough
// points at a bar and reads the tooltip echarts shows for it (HTML, inside the chart's element).
import type { Locator, Page } from 'playwright-core';

/** The breakdown charts' plot ends this far above the chart's bottom edge (DashboardCharts: grid.bottom). */
const PLOT_BOTTOM_GAP = 24;

/**
 * Points at the last row of a horizontal breakdown chart (rows run top to bottom, so the last is lowest)
 * and answers the tooltip's text.
 */
export async function lastRowTooltip(page: Page, chart: Locator): Promise<string> {
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  if (!box) throw new Error('the chart has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height - PLOT_BOTTOM_GAP - 4);
  // echarts appends its tooltip to the chart element; the canvas's wrapper holds no text, so the first
  // element with text is the tooltip's outer box.
  const tooltip = chart.locator('div').filter({ hasText: /\S/ }).first();
  await tooltip.waitFor();
  return (await tooltip.innerText()).trim();
}
