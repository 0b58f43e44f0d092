/**
 * One batch, exactly the service's 18 fields (docs/batch-data-service.md#batches), and exactly what our own
 * API hands to the browser; checked on the server by BatchSchema (schemas.ts). Decimals travel as strings with
 * two digits after the point.
 */
export type Batch = {
  batch_id: string;
  batch_name: string;
  batch_creation_date: string;
  crop_type: string | null;
  number_of_images: number;
  total_cells_per_tray: number | null;
  avg_germinated_seedlings: string | null;
  avg_non_germinated_seedlings: string | null;
  avg_germination_rate: string | null;
  avg_usable_seedlings: string | null;
  avg_non_usable_cells: string | null;
  avg_usable_seedling_rate: string | null;
  avg_coefficient_of_variation: string | null;
  avg_median_seedling_size_mm2: string | null;
  scanned_by_email: string | null;
  analysis_link: string | null;
  comment: string | null;
  warnings: boolean;
};

/** The service's field names in its own order: CSV headers, the detail dialog and tables use this order. */
export const BATCH_FIELDS: readonly (keyof Batch)[] = [
  'batch_id',
  'batch_name',
  'batch_creation_date',
  'crop_type',
  'number_of_images',
  'total_cells_per_tray',
  'avg_germinated_seedlings',
  'avg_non_germinated_seedlings',
  'avg_germination_rate',
  'avg_usable_seedlings',
  'avg_non_usable_cells',
  'avg_usable_seedling_rate',
  'avg_coefficient_of_variation',
  'avg_median_seedling_size_mm2',
  'scanned_by_email',
  'analysis_link',
  'comment',
  'warnings',
];
