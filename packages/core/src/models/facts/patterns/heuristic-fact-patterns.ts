import type { FactPattern } from './fact-pattern.js';
import { identityFactPatterns } from './identity-fact-patterns.js';
import { peopleFactPatterns } from './people-fact-patterns.js';
import { planFactPatterns } from './plan-fact-patterns.js';
import { preferenceFactPatterns } from './preference-fact-patterns.js';
import { workFactPatterns } from './work-fact-patterns.js';

/**
 * Every rule of the heuristic fact extractor. Predicates follow strata's slot rule (a new
 * fact with the same subject + predicate supersedes the old one): single-valued attributes
 * are plain (`lives_in`), multi-valued ones carry the item after a colon (`opinion_of:jazz`).
 */
export const heuristicFactPatterns: readonly FactPattern[] = [...identityFactPatterns, ...workFactPatterns, ...peopleFactPatterns, ...preferenceFactPatterns, ...planFactPatterns];
