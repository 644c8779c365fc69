// Version 2: claiming a job finds the next one of a kind by walking an index in claim
// order (one lookup), instead of reading and sorting every waiting job of the kind: with
// 100,000 uploads queued, each claim read them all.
export const schemaV2 = `
CREATE INDEX jobs_claim ON jobs(kind, priority DESC, next_run_at, id)
  WHERE state IN ('queued', 'retry-wait');
`;
