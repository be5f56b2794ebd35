// The task types of the test calculations (calculations.ts beside this file). The service reads this list, and
// accepts these types, only when PHASEDESK_TEST_CALCULATIONS=1 and the test hooks are built (main/requests/task-config.ts):
// the production build has neither the list nor the calculations.
export const TEST_TASK_TYPES = ['__test_sleep', '__test_crash', '__test_throw', '__test_write', '__test_heap'] as const;
export type TestTaskType = (typeof TEST_TASK_TYPES)[number];
