import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, RequestMetrics } from '../../src/http/request-metrics.js';

/** The text prom-client's own Counter and Histogram write for the same observations. */
async function promClientText(observations: readonly [string, string, number, number][]): Promise<string> {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_class'] as const;
  const counter = new Counter({
    name: 'booklink_http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const histogram = new Histogram({
    name: 'booklink_http_request_duration_seconds',
    help: 'Time from request to response',
    labelNames,
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    const labels = { method, route, status_class: `${Math.floor(status / 100)}xx` };
    counter.inc(labels);
    histogram.observe(labels, seconds);
  }
  return registry.metrics();
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('RequestMetrics', () => {
  it('writes what prom-client writes for the same requests, line for line', async () => {
    const observations: [string, string, number, number][] = [
      ['GET', '/book/:slug', 200, 0.0004],
      ['GET', '/book/:slug', 200, 0.005],
      ['GET', '/book/:slug', 304, 0.0051],
      ['GET', '/book/:slug', 404, 0.3],
      ['POST', '/api/v1/resolve', 201, 2.5],
      ['GET', 'unmatched', 404, 12],
      ['GET', '/book/:slug', 200, 0.75],
    ];
    const metrics = new RequestMetrics();
    for (const observation of observations) metrics.observe(...observation);
    assert.deepEqual(lines(metrics.text()), lines(await promClientText(observations)));
  });

  it('counts into cumulative buckets, +Inf holding every request', () => {
    const metrics = new RequestMetrics();
    for (const seconds of [0.001, 0.02, 0.02, 30]) metrics.observe('GET', '/b/:slug', 200, seconds);
    const text = metrics.text();
    const series = 'method="GET",route="/b/:slug",status_class="2xx"';
    assert.match(text, new RegExp(`^booklink_http_requests_total\\{${series}\\} 4$`, 'm'));
    const bucket = (le: string) =>
      Number(
        new RegExp(
          `^booklink_http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",${series}\\} (\\d+)$`,
          'm',
        ).exec(text)?.[1],
      );
    assert.deepEqual(
      ['0.005', '0.01', '0.025', '10', '+Inf'].map(bucket),
      [1, 1, 3, 3, 4],
      'a bucket counts every request at or under its bound',
    );
    assert.match(text, new RegExp(`^booklink_http_request_duration_seconds_sum\\{${series}\\} 30.041$`, 'm'));
  });

  it('escapes label values as the text format requires', () => {
    const metrics = new RequestMetrics();
    metrics.observe('GET', '/odd/"quoted"\\path\n', 500, 0.1);
    assert.match(metrics.text(), /route="\/odd\/\\"quoted\\"\\\\path\\n",status_class="5xx"/);
  });
});
