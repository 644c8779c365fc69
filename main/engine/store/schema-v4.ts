// Version 4: jobs_runnable goes. Claims walk jobs_claim (version 2), kind first, and no query
// reads jobs in jobs_runnable's order any more; yet every job's insert, claim and end still
// wrote it: one page more in each commit of the queue (some 7 % of the WAL written while
// 1,000 files upload).
export const schemaV4 = `
DROP INDEX IF EXISTS jobs_runnable;
`;
