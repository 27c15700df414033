/**
 * What the server writes into a view's page when it serves it (app-views.ts), and the view reads back: the operator's
 * settings and the facts the view must not hold a copy of. Shared by both sides; imports nothing.
 */
export interface ViewConfig {
  /** The tool the view calls for its actions (another CRS), through the host. */
  tool: string;
  /** proj4 definitions of the coordinate systems, by code. */
  projections: Readonly<Record<string, string>>;
  /** The operator's tile URL template ({z}/{x}/{y}); absent: a schematic map, nothing fetched. */
  tiles?: string;
}

/** The element of the built page the settings replace; `null` until the server fills it in. */
export const VIEW_CONFIG_ELEMENT = '<script type="application/json" id="view-config">null</script>';
