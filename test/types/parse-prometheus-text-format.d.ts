declare module 'parse-prometheus-text-format' {
  /** One series of a family; values stay the strings of the text (`"NaN"`, `"+Inf"`). */
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses Prometheus's text exposition format, one entry per metric family in the order given. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
