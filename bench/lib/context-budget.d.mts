export const OPERATIONS_BUDGET_BYTES: number;
export const WHOLE_LIST_CEILING_BYTES: number;
