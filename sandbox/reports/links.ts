/** Where the analysis reports live: `/reports/<organisation id>/<batch_id>`. */
export const REPORTS_PATH = '/reports/';

/** The link a batch's analysis_link holds: under the sandbox's origin as browsers reach it. */
export const reportBaseUrl = (publicUrl: string, organisationId: string) =>
  `${publicUrl}${REPORTS_PATH}${encodeURIComponent(organisationId)}`;
