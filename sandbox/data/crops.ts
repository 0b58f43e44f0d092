/** Typical behaviour of each crop in a nursery: the generator draws around these. */
export type CropProfile = {
  name: string;
  varieties: readonly string[];
  /** Share of all scans. */
  weight: number;
  germinationMean: number;
  germinationSd: number;
  /** Percentage points between germinated and usable seedlings. */
  usableGap: number;
  /** Median seedling size in mm² at scan time. */
  sizeMm2: number;
  trays: readonly number[];
};

export const CROPS: readonly CropProfile[] = [
  {
    name: 'Tomato',
    varieties: ['Moneymaker', 'San Marzano', 'Cherry Belle'],
    weight: 22,
    germinationMean: 93,
    germinationSd: 3.5,
    usableGap: 4,
    sizeMm2: 180,
    trays: [72, 128, 200],
  },
  {
    name: 'Lettuce',
    varieties: ['Batavia', 'Romaine', 'Lollo Rosso'],
    weight: 20,
    germinationMean: 95,
    germinationSd: 2.5,
    usableGap: 3,
    sizeMm2: 120,
    trays: [128, 200, 288],
  },
  {
    name: 'Bell pepper',
    varieties: ['California Wonder', 'Sweet Palermo'],
    weight: 12,
    germinationMean: 86,
    germinationSd: 5,
    usableGap: 6,
    sizeMm2: 110,
    trays: [72, 128],
  },
  {
    name: 'Cucumber',
    varieties: ['Marketmore', 'Mini Munch'],
    weight: 10,
    germinationMean: 94,
    germinationSd: 3,
    usableGap: 4,
    sizeMm2: 420,
    trays: [72, 104],
  },
  {
    name: 'Basil',
    varieties: ['Genovese', 'Thai'],
    weight: 10,
    germinationMean: 88,
    germinationSd: 4.5,
    usableGap: 5,
    sizeMm2: 60,
    trays: [128, 200, 288],
  },
  {
    name: 'Broccoli',
    varieties: ['Calabrese', 'Belstar'],
    weight: 9,
    germinationMean: 91,
    germinationSd: 4,
    usableGap: 5,
    sizeMm2: 140,
    trays: [128, 200],
  },
  {
    name: 'Petunia',
    varieties: ['Surfinia', 'Wave Purple'],
    weight: 9,
    germinationMean: 82,
    germinationSd: 6,
    usableGap: 7,
    sizeMm2: 35,
    trays: [200, 288],
  },
  {
    name: 'Spinach',
    varieties: ['Matador', 'Giant Winter'],
    weight: 8,
    germinationMean: 87,
    germinationSd: 5,
    usableGap: 6,
    sizeMm2: 90,
    trays: [200, 288],
  },
];

export const COMMENTS: readonly string[] = [
  'Re-scan after watering',
  'Seed lot 2024-17, primed',
  'Edge cells dry, check misting on bench 3',
  'Client asked for a "priority" report',
  'Damping-off suspected in rows 5–7',
  'Mixed tray, ignore row 12',
  "Low light week; compare with Tuesday's batch",
  'Cold snap overnight, heating off 02:00–05:00',
  'Trays from supplier lot 4471, slow start',
  'Sown by hand, spacing uneven',
  'Second sowing of the same lot,\nfirst one discarded',
];

export const SITES: readonly string[] = ['GH1', 'GH2', 'GH3', 'North tunnel', 'Propagation A', 'Propagation B'];
