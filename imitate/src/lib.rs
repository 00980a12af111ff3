//! Imitation: the strategy estimator (SPEC 3), the lookup imitator (SPEC 4) over mined sequence tables, and
//! the evaluation of match rate and coverage (SPEC 4.1).
