/** Upper bounds of the latency histogram's buckets, in seconds (`+Inf` follows). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const REQUESTS = 'booklink_http_requests_total';
const DURATION = 'booklink_http_request_duration_seconds';

interface Series {
  /** `method="GET",route="/book/:slug",status_class="2xx"`, escaped once. */
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative; the last one is `+Inf`'s own. */
  buckets: number[];
}

/** A label value as the Prometheus text format writes it. */
const escaped = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/**
 * Requests answered and their latency, by method, route pattern and status class: the counter
 * `booklink_http_requests_total` and the histogram `booklink_http_request_duration_seconds`,
 * written in Prometheus's text format at scrape time. prom-client's Counter and Histogram validate
 * and hash the label set and key each bucket by its bound's string on every observation, about
 * 3 µs of a replayed book page's CPU (bench/README); here one is a map lookup and a few additions.
 * The series are bounded as before: routes × methods Node's parser accepts × status classes.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const status = Math.floor(statusCode / 100);
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = `method="${escaped(method)}",route="${escaped(route)}",status_class="${status}xx"`;
      series = { labels, count: 0, sum: 0, buckets: new Array(DURATION_BUCKETS.length + 1).fill(0) };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
  }

  /** Both families in the text format, as prom-client's registry writes its own. */
  text(): string {
    const counts = [`# HELP ${REQUESTS} HTTP requests answered`, `# TYPE ${REQUESTS} counter`];
    const durations = [`# HELP ${DURATION} Time from request to response`, `# TYPE ${DURATION} histogram`];
    for (const { labels, count, sum, buckets } of this.series.values()) {
      counts.push(`${REQUESTS}{${labels}} ${count}`);
      let below = 0;
      DURATION_BUCKETS.forEach((bound, i) => {
        below += buckets[i] ?? 0;
        durations.push(`${DURATION}_bucket{le="${bound}",${labels}} ${below}`);
      });
      durations.push(`${DURATION}_bucket{le="+Inf",${labels}} ${count}`);
      durations.push(`${DURATION}_sum{${labels}} ${sum}`, `${DURATION}_count{${labels}} ${count}`);
    }
    return `${counts.join('\n')}\n\n${durations.join('\n')}\n`;
  }
}
