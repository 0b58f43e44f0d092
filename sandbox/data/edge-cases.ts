import type { Batch } from '../../lib/contract';

/** What every edge case has unless it says otherwise. */
const base: Batch = {
  batch_id: '',
  batch_name: '',
  batch_creation_date: '',
  crop_type: 'Tomato',
  number_of_images: 4,
  total_cells_per_tray: 128,
  avg_germinated_seedlings: '118.40',
  avg_non_germinated_seedlings: '9.60',
  avg_germination_rate: '92.50',
  avg_usable_seedlings: '113.28',
  avg_non_usable_cells: '14.72',
  avg_usable_seedling_rate: '88.50',
  avg_coefficient_of_variation: '21.30',
  avg_median_seedling_size_mm2: '176.25',
  scanned_by_email: 'qa@edge-cases.example',
  analysis_link: null,
  comment: null,
  warnings: false,
};

/**
 * Hand-made batches for the `edge-client` organisation: hostile text, odd links, nulls, boundary
 * timestamps and ties. Fixed dates, so tests can name them. A batch's analysis link is its report under
 * `reportBaseUrl` unless it is one of the odd links (`javascript:`, `data:`, relative, another host's http).
 */
export function edgeCaseBatches(reportBaseUrl: string): Batch[] {
  const edge = (n: number, date: string, fields: Partial<Batch>): Batch => {
    const batch_id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    return {
      ...base,
      batch_id,
      batch_name: `Edge case ${n}`,
      batch_creation_date: date,
      analysis_link: `${reportBaseUrl}/${batch_id}`,
      ...fields,
    };
  };
  return [
    edge(1, '2025-01-01T00:00:00Z', { batch_name: 'Midnight on New Year (UTC)' }),
    edge(2, '2025-01-01T00:00:00Z', { batch_name: 'Same second as edge case 1' }),
    edge(3, '2025-01-01T23:59:59Z', { batch_name: 'Last second of the day' }),
    edge(4, '2025-03-30T00:59:59Z', { batch_name: 'Just before the EU spring DST change' }),
    edge(5, '2025-03-30T01:00:00Z', { batch_name: 'At the EU spring DST change' }),
    edge(6, '2025-04-02T09:00:00Z', {
      batch_name: '<script>window.__xss = 1</script>',
      comment: '<img src=x onerror="window.__xss=1">',
    }),
    edge(7, '2025-04-02T09:00:01Z', { batch_name: 'javascript: link', analysis_link: 'javascript:window.__xss=1' }),
    edge(8, '2025-04-02T09:00:02Z', {
      batch_name: 'data: link',
      analysis_link: 'data:text/html,<script>window.__xss=1</script>',
    }),
    edge(9, '2025-04-02T09:00:03Z', { batch_name: '=HYPERLINK("http://evil.example","click")', comment: '+SUM(1,2)' }),
    edge(10, '2025-04-02T09:00:04Z', { batch_name: '-2+3', comment: '@cmd|/c calc' }),
    edge(11, '2025-04-02T09:00:05Z', { batch_name: '\tTab first', comment: '\rCarriage return first' }),
    edge(12, '2025-04-02T09:00:06Z', {
      batch_name: 'Quotes "and", commas',
      comment: 'Line one,\nline "two"\r\nline three',
    }),
    edge(13, '2025-04-02T09:00:07Z', { batch_name: 'Ünïcödé 🌱 بذور 種子', crop_type: 'Pak choi 小白菜' }),
    edge(14, '2025-04-02T09:00:08Z', {
      batch_name: 'All optional fields null',
      crop_type: null,
      total_cells_per_tray: null,
      avg_germinated_seedlings: null,
      avg_non_germinated_seedlings: null,
      avg_germination_rate: null,
      avg_usable_seedlings: null,
      avg_non_usable_cells: null,
      avg_usable_seedling_rate: null,
      avg_coefficient_of_variation: null,
      avg_median_seedling_size_mm2: null,
      scanned_by_email: null,
      analysis_link: null,
      comment: null,
      warnings: true,
    }),
    edge(15, '2025-04-02T09:00:09Z', {
      batch_name: 'Perfect tray',
      avg_germination_rate: '100.00',
      avg_usable_seedling_rate: '100.00',
      avg_germinated_seedlings: '128.00',
      avg_non_germinated_seedlings: '0.00',
      avg_usable_seedlings: '128.00',
      avg_non_usable_cells: '0.00',
    }),
    edge(16, '2025-04-02T09:00:10Z', {
      batch_name: 'Empty tray',
      avg_germination_rate: '0.00',
      avg_usable_seedling_rate: '0.00',
      avg_germinated_seedlings: '0.00',
      avg_non_germinated_seedlings: '128.00',
      avg_usable_seedlings: '0.00',
      avg_non_usable_cells: '128.00',
      warnings: true,
    }),
    edge(17, '2025-04-02T09:00:11Z', { batch_name: 'N'.repeat(2000), comment: 'A very long name' }),
    edge(18, '2025-04-02T09:00:12Z', { batch_name: 'Relative link', analysis_link: '/analysis/relative' }),
    edge(19, '2025-04-02T09:00:13Z', {
      batch_name: 'Plain http link',
      analysis_link: 'http://reports.batchscan.example/analysis/http',
    }),
    edge(20, '2025-10-26T00:59:59Z', { batch_name: 'Just before the EU autumn DST change' }),
    edge(21, '2025-10-26T01:00:00Z', { batch_name: 'At the EU autumn DST change' }),
    edge(22, '2025-12-31T23:59:59Z', { batch_name: 'Last second of 2025' }),
  ];
}
