/**
 * The one echarts registration of the app: only the pieces its charts draw (bars, grid, legend, tooltip,
 * canvas), so echarts stays small. The dashboard, the admin dashboard and the log histogram import it from
 * here, so their lazy chunks share one copy (web/test/first-load-split.test.ts holds it).
 */
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { echarts, ReactEChartsCore };
