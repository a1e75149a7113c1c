//! How much of a long session's past stays in memory: the constants live
//! with what they limit (the engine's retired, answered and cold records,
//! the packed findings); tests may set other
//! numbers on their own thread, here, to push every record out at once and
//! check that no finding changes.

/// Numbers a test set on its thread, in place of the constants.
#[derive(Debug, Clone, Copy, Default)]
pub struct Overrides {
    /// In place of `retired::CANCELLED_KEPT_WHOLE`.
    pub kept_whole: Option<usize>,
    /// In place of `answered::RESIDENT_PAGES`.
    pub resident_pages: Option<usize>,
    /// In place of `cold::HOT_RECORDS`.
    pub hot_records: Option<usize>,
    /// In place of `packed::SEGMENT_BYTES`.
    pub segment_bytes: Option<usize>,
}

#[cfg(test)]
thread_local! {
    static OVERRIDES: std::cell::Cell<Overrides> = const {
        std::cell::Cell::new(Overrides {
            kept_whole: None,
            resident_pages: None,
            hot_records: None,
            segment_bytes: None,
        })
    };
}

/// Sets the numbers of this thread's later limits, for a test.
#[cfg(test)]
pub fn set_for_test(overrides: Overrides) {
    OVERRIDES.set(overrides);
}

/// `constant`, unless a test set another number with `pick` on this thread.
pub fn limit(constant: usize, pick: fn(Overrides) -> Option<usize>) -> usize {
    #[cfg(test)]
    if let Some(number) = pick(OVERRIDES.get()) {
        return number;
    }
    let _ = pick;
    constant
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every finding of `trace`, fed one event at a time on this thread
    /// with `overrides` in place.
    fn findings_with(trace: &str, overrides: Overrides) -> Vec<String> {
        OVERRIDES.set(overrides);
        let format = crate::decode::Format::Canonical;
        let events = crate::decode::decode_chunk(trace.as_bytes(), 0, 0, format).events;
        let mut engine = crate::rules::engine();
        events.iter().for_each(|event| engine.feed(event));
        let (diagnostics, _) = engine.finish();
        OVERRIDES.set(Overrides::default());
        diagnostics.iter().map(|d| format!("{d:?}")).collect()
    }

    fn same_findings(bytes: &[u8], overrides: Overrides) -> Result<(), TestCaseError> {
        let trace = crate::generate::trace_from_bytes(bytes);
        let pushed_out = findings_with(&trace, overrides);
        prop_assert_eq!(pushed_out, findings_with(&trace, Overrides::default()));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Retiring every cancelled request at once changes no finding.
        #[test]
        fn retiring_cancelled_requests_changes_no_finding(
            bytes in proptest::collection::vec(any::<u8>(), 0..1500)
        ) {
            same_findings(&bytes, Overrides { kept_whole: Some(0), ..Overrides::default() })?;
        }

        /// Spilling every page of answered requests at once, and every
        /// other answered id, changes no finding.
        #[test]
        fn spilling_answered_requests_changes_no_finding(
            bytes in proptest::collection::vec(any::<u8>(), 0..1500)
        ) {
            let overrides = Overrides { resident_pages: Some(0), hot_records: Some(0), ..Overrides::default() };
            same_findings(&bytes, overrides)?;
        }

        /// Writing every retired request and every answered request's
        /// extras to the spill file at once (or all but a few) changes no finding.
        #[test]
        fn cold_records_change_no_finding(
            bytes in proptest::collection::vec(any::<u8>(), 0..1500),
            hot_records in 0usize..6,
        ) {
            let overrides = Overrides { kept_whole: Some(0), hot_records: Some(hot_records), ..Overrides::default() };
            same_findings(&bytes, overrides)?;
        }

        /// Packing findings in small segments, each written to the spill
        /// file as the next begins, changes no finding.
        #[test]
        fn spilled_findings_change_no_finding(
            bytes in proptest::collection::vec(any::<u8>(), 0..1500),
            segment_bytes in 1usize..600,
        ) {
            same_findings(&bytes, Overrides { segment_bytes: Some(segment_bytes), ..Overrides::default() })?;
        }
    }
}
