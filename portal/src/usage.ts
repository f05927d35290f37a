import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { byId, cell, el } from './dom';
import { formatDecimal, sumDecimals } from './format';
import type { Usage } from './types';

// Only what a stacked bar chart needs, so the bundle carries nothing else of Chart.js.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Distinct on light and dark backgrounds; endpoints beyond the list reuse it in order. */
const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626', '#4b5563', '#ca8a04'];

interface EndpointTotal {
  endpoint: string;
  calls: number;
  credits: string;
}

/**
 * Calls per day, stacked by endpoint, and the same numbers as a table: the canvas is a picture to a
 * screen reader, so the table (per-endpoint totals for the window) is what it reads.
 */
export class UsageView {
  private readonly canvas = byId('usage-chart', HTMLCanvasElement);
  private readonly body = byId('usage-body', HTMLTableSectionElement);
  private readonly totalCalls = byId('usage-total-calls', HTMLTableCellElement);
  private readonly totalCredits = byId('usage-total-credits', HTMLTableCellElement);
  private readonly caption = byId('usage-caption', HTMLTableCaptionElement);
  private readonly empty = byId('usage-empty', HTMLParagraphElement);
  private chart?: Chart<'bar', number[], string>;

  render(usage: Usage): void {
    const totals = endpointTotals(usage);
    const calls = totals.reduce((sum, total) => sum + total.calls, 0);
    this.caption.textContent = `Calls per endpoint, ${usage.from} to ${usage.to} (UTC)`;
    this.body.replaceChildren(...totals.map((total) => this.row(total)));
    this.totalCalls.textContent = calls.toLocaleString('en-US');
    this.totalCredits.textContent = formatDecimal(sumDecimals(totals.map((total) => total.credits)));
    this.empty.hidden = totals.length > 0;
    this.canvas.setAttribute(
      'aria-label',
      `Bar chart: ${calls} calls from ${usage.from} to ${usage.to}, per day and endpoint; the table below lists the totals.`,
    );
    this.draw(usage, totals);
  }

  clear(): void {
    this.chart?.destroy();
    this.chart = undefined;
    this.body.replaceChildren();
    this.totalCalls.textContent = '0';
    this.totalCredits.textContent = '0';
    this.caption.textContent = 'Calls per endpoint';
  }

  private row({ endpoint, calls, credits }: EndpointTotal): HTMLTableRowElement {
    const tr = el('tr');
    const name = cell('Endpoint', '');
    name.append(el('code', endpoint));
    tr.append(name, cell('Calls', calls.toLocaleString('en-US'), 'num'), cell('Credits', formatDecimal(credits), 'num'));
    return tr;
  }

  private draw(usage: Usage, totals: readonly EndpointTotal[]): void {
    const labels = usage.days.map((day) => day.date.slice(5));
    const datasets = totals.map(({ endpoint }, index) => ({
      label: endpoint,
      data: usage.days.map((day) => day.endpoints.find((entry) => entry.endpoint === endpoint)?.calls ?? 0),
      backgroundColor: PALETTE[index % PALETTE.length],
      stack: 'calls',
    }));
    if (this.chart) {
      this.chart.data = { labels, datasets };
      this.chart.update();
      return;
    }
    this.chart = new Chart(this.canvas, {
      type: 'bar',
      data: { labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { stacked: true, ticks: { autoSkip: true, maxRotation: 0 } },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'calls' } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
  }
}

/** Every endpoint seen in the window with its totals, busiest first. */
function endpointTotals(usage: Usage): EndpointTotal[] {
  const byEndpoint = new Map<string, { calls: number; credits: string[] }>();
  for (const day of usage.days) {
    for (const { endpoint, calls, credits } of day.endpoints) {
      const total = byEndpoint.get(endpoint) ?? { calls: 0, credits: [] };
      total.calls += calls;
      total.credits.push(credits);
      byEndpoint.set(endpoint, total);
    }
  }
  return [...byEndpoint]
    .map(([endpoint, total]) => ({ endpoint, calls: total.calls, credits: sumDecimals(total.credits) }))
    .filter((total) => total.calls > 0)
    .sort((a, b) => b.calls - a.calls || a.endpoint.localeCompare(b.endpoint));
}
