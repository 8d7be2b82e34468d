import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { ChartOption } from './chart-options.ts';

// Only the chart kinds the panels draw, with the SVG renderer: a smaller chunk than all of ECharts, and
// crisp text that screen readers and tests can find.
use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** One ECharts chart filling its box, redrawn when the option, theme or box size changes. Its own chunk. */
export default function Chart({ option, dark, testId }: { option: ChartOption; dark: boolean; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const instance = init(box.current, dark ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, dark]);

  return <div ref={box} data-testid={testId} style={{ width: '100%', height: '100%', minHeight: 80 }} />;
}
