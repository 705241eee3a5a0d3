/** Injection token for the configured CandidateIndex engine. */
export const CANDIDATE_INDEX = Symbol('CANDIDATE_INDEX');
