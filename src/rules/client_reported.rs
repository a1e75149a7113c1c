//! Findings from the failures a client's log reports in words. Each failure
//! is the finding of an existing rule; the rule asks here whether the event
//! is such a report, and builds its diagnostic here, so that every one is
//! marked and shows what the log quoted. Those rules want
//! [`Wants::TRANSPORT`](crate::rule::Wants::TRANSPORT) events.

use crate::diagnostic::{Diagnostic, Words};
use crate::event::{ClientReport, Payload, ReportedFailure, Transport};
use crate::rule::{Ctx, RuleMeta};

/// How much of a quoted message or output line a finding shows.
const QUOTE_LIMIT: usize = 160;

/// The failure the client's log reports at this event, if it does.
fn report<'a>(ctx: &Ctx<'a>) -> Option<&'a ClientReport> {
    match &ctx.event.payload {
        Payload::Transport(Transport::ClientReported(report)) => Some(report),
        _ => None,
    }
}

/// The failure reported at this event, if it is the one `wanted` picks.
pub(super) fn failure<'a, T>(
    ctx: &Ctx<'a>,
    wanted: impl Fn(&'a ReportedFailure) -> Option<T>,
) -> Option<(T, &'a ClientReport)> {
    let report = report(ctx)?;
    wanted(&report.failure).map(|found| (found, report))
}

/// A finding of `meta` for a reported failure: marked as reported by the
/// client, with the quoted message or output when the log holds it. The
/// text stays as logged; the report escapes it.
pub(super) fn diagnostic(
    ctx: &Ctx,
    meta: &'static RuleMeta,
    what: impl Into<Words>,
    report: &ClientReport,
) -> Diagnostic {
    let message = match &report.quoted {
        Some(quoted) => words!(
            "the client reports: {}: {}",
            what.into(),
            crate::sanitize::truncate(quoted, QUOTE_LIMIT)
        ),
        None => words!("the client reports: {}", what.into()),
    };
    ctx.diagnostic(meta, message)
        .reported_by_client()
        .with_label("the client's report")
}
