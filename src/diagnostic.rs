//! Diagnostics as data: what a rule found, where, and why it is a violation.
//! Every output format renders these; none of them computes anything.

use std::fmt;
use std::sync::Arc;

use crate::event::{Location, ProgressToken, RequestId, Side};
use crate::packed::{Packer, Unpacker};
use crate::protocol::Version;
pub use crate::rule::RuleMeta;
pub use crate::words::{Arg, Words};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An earlier (or related) place in the trace that makes the finding a violation.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    pub location: Location,
    pub message: Words,
}

/// One finding, held from the rule that makes it until the report: a
/// large trace has hundreds of thousands of them, so it is kept small (what
/// few findings have sits behind one pointer, in [`Details`]).
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    /// What was found, as data; reports word and escape it.
    pub message: Words,
    pub location: Location,
    /// The session's name, shared by its findings.
    pub session: Option<Arc<str>>,
    pub from: Option<Side>,
    pub request_id: Option<RequestId>,
    /// Earlier (or related) places, without spare room.
    pub related: Box<[Related]>,
    /// Extra explanation for this finding (the rule's help is always shown too).
    pub note: Option<Words>,
    /// A short label for the offending line; the rule's summary when `None`.
    pub label: Option<Words>,
    /// The session's protocol version, in whose wording the spec is quoted.
    pub version: Option<Version>,
    /// The revision whose spec page the finding links (the session's).
    pub spec_version: Option<Version>,
    /// The finding rests on a failure the client's log reports in words,
    /// not on messages the trace shows.
    pub reported_by_client: bool,
    /// A message for a cancelled request that may have crossed the
    /// cancellation (a race the spec allows); the policy may leave it out.
    pub may_have_crossed: bool,
    details: Option<Box<Details>>,
}

/// What only some findings have.
#[derive(Debug, Clone, Default)]
struct Details {
    progress_token: Option<ProgressToken>,
    /// The JSON pointer of the offending value in the message (`/params/name`).
    pointer: Option<Box<str>>,
    /// Where in its batch the message sits.
    batch_index: Option<u32>,
}

impl Details {
    fn pack(&self, packer: &mut Packer) {
        let flags = [
            self.progress_token.is_some(),
            self.pointer.is_some(),
            self.batch_index.is_some(),
        ];
        packer.byte(
            flags
                .iter()
                .rev()
                .fold(0, |bits, &flag| bits << 1 | u8::from(flag)),
        );
        self.progress_token
            .iter()
            .for_each(|token| packer.key(&token.0));
        self.pointer.iter().for_each(|pointer| packer.text(pointer));
        self.batch_index
            .iter()
            .for_each(|&index| packer.uint(index.into()));
    }

    fn unpack(unpacker: &mut Unpacker) -> Details {
        let flags = unpacker.byte();
        Details {
            progress_token: (flags & 1 != 0).then(|| ProgressToken(unpacker.key())),
            pointer: (flags & 2 != 0).then(|| unpacker.text().into()),
            batch_index: (flags & 4 != 0).then(|| unpacker.uint() as u32),
        }
    }
}

impl Diagnostic {
    /// A finding of `meta` at `location`, worded for a session of `version`.
    pub fn new(
        meta: &'static RuleMeta,
        session: Option<Arc<str>>,
        version: Option<Version>,
        location: Location,
        message: Words,
    ) -> Diagnostic {
        Diagnostic {
            rule: meta,
            severity: meta.default_severity,
            message,
            location,
            session,
            from: None,
            request_id: None,
            related: Box::default(),
            note: None,
            label: None,
            version,
            spec_version: version,
            reported_by_client: false,
            may_have_crossed: false,
            details: None,
        }
    }

    /// The spec page the finding links, made when a report shows it.
    pub fn spec_url(&self) -> Option<String> {
        self.rule.spec_url(self.spec_version)
    }

    /// The spec sentence, in the wording of the session's protocol version.
    pub fn quote(&self) -> &'static str {
        self.rule.quote_for(self.version)
    }

    pub fn progress_token(&self) -> Option<&ProgressToken> {
        self.details.as_ref()?.progress_token.as_ref()
    }

    /// The JSON pointer of the offending value in the message (`/params/name`).
    pub fn pointer(&self) -> Option<&str> {
        self.details.as_ref()?.pointer.as_deref()
    }

    /// Where in its batch the message sits (0 for the first).
    pub fn batch_index(&self) -> Option<u32> {
        self.details.as_ref()?.batch_index
    }

    fn details(&mut self) -> &mut Details {
        self.details.get_or_insert_with(Box::default)
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_request_id(mut self, id: &RequestId) -> Self {
        self.request_id = Some(id.clone());
        self
    }

    pub fn with_progress_token(mut self, token: &ProgressToken) -> Self {
        self.details().progress_token = Some(token.clone());
        self
    }

    /// Places the message in its batch; `None` leaves it unplaced.
    pub fn with_batch_index(mut self, index: Option<u32>) -> Self {
        if index.is_some() {
            self.details().batch_index = index;
        }
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<Words>) -> Self {
        let related = Related {
            location,
            message: message.into(),
        };
        let mut all = std::mem::take(&mut self.related).into_vec();
        // Room for exactly one more: spare room would be held until the report.
        all.reserve_exact(1);
        all.push(related);
        self.related = all.into_boxed_slice();
        self
    }

    pub fn with_label(mut self, label: impl Into<Words>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Marks a finding the client's log reported.
    pub fn reported_by_client(mut self) -> Self {
        self.reported_by_client = true;
        self
    }

    pub fn with_note(mut self, note: impl Into<Words>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Points at the offending value inside the message.
    pub fn with_pointer(mut self, pointer: &str) -> Self {
        self.details().pointer = Some(pointer.into());
        self
    }

    /// The finding's words, with the pointer of the offending value when it
    /// has one; trace text goes through `escape`.
    pub fn text(&self, escape: &dyn Fn(&str) -> std::borrow::Cow<str>) -> String {
        let message = self.message.render(escape);
        match self.pointer() {
            Some(pointer) => format!("{message} (at {})", escape(pointer)),
            None => message,
        }
    }

    /// Writes the finding for [`crate::packed::PackedFindings`].
    pub(crate) fn pack(&self, packer: &mut Packer) {
        let flags = [
            self.session.is_some(),
            self.from.is_some(),
            self.request_id.is_some(),
            self.note.is_some(),
            self.label.is_some(),
            self.version.is_some(),
            self.spec_version.is_some(),
            self.reported_by_client,
            self.may_have_crossed,
            self.details.is_some(),
        ];
        let flags = flags
            .iter()
            .rev()
            .fold(0, |bits, &flag| bits << 1 | u64::from(flag));
        packer.uint(flags);
        packer.rule(self.rule);
        packer.byte(self.severity as u8);
        self.message.pack(packer);
        packer.location(&self.location);
        self.session.iter().for_each(|name| packer.session(name));
        self.from.iter().for_each(|&side| packer.side(side));
        self.request_id.iter().for_each(|id| packer.key(&id.0));
        packer.uint(self.related.len() as u64);
        for related in &self.related {
            packer.location(&related.location);
            related.message.pack(packer);
        }
        self.note.iter().for_each(|note| note.pack(packer));
        self.label.iter().for_each(|label| label.pack(packer));
        self.version
            .iter()
            .for_each(|&version| packer.version(version));
        self.spec_version
            .iter()
            .for_each(|&version| packer.version(version));
        if let Some(details) = &self.details {
            details.pack(packer);
        }
    }

    /// Reads back what [`Diagnostic::pack`] wrote.
    pub(crate) fn unpack(unpacker: &mut Unpacker) -> Diagnostic {
        let flags = unpacker.uint();
        let flag = |n: u32| flags & 1 << n != 0;
        let rule = unpacker.rule();
        let severity = match unpacker.byte() {
            0 => Severity::Info,
            1 => Severity::Warning,
            _ => Severity::Error,
        };
        let message = Words::unpack(unpacker);
        let location = unpacker.location();
        let session = flag(0).then(|| unpacker.session());
        let from = flag(1).then(|| unpacker.side());
        let request_id = flag(2).then(|| RequestId(unpacker.key()));
        let related = (0..unpacker.uint())
            .map(|_| Related {
                location: unpacker.location(),
                message: Words::unpack(unpacker),
            })
            .collect();
        Diagnostic {
            rule,
            severity,
            message,
            location,
            session,
            from,
            request_id,
            related,
            note: flag(3).then(|| Words::unpack(unpacker)),
            label: flag(4).then(|| Words::unpack(unpacker)),
            version: flag(5).then(|| unpacker.version()),
            spec_version: flag(6).then(|| unpacker.version()),
            reported_by_client: flag(7),
            may_have_crossed: flag(8),
            details: flag(9).then(|| Box::new(Details::unpack(unpacker))),
        }
    }

    /// Where in its batch the message sits, as reports say it.
    pub fn batch_place(&self) -> Option<String> {
        self.batch_index()
            .map(|index| format!("message {} of the batch", index + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Key, Location};
    use crate::words::Joined;

    #[test]
    fn a_packed_finding_unpacks_whole() {
        let meta = crate::rules::find("duplicate-response")
            .expect("a rule")
            .meta;
        let at = |line| Location {
            source: 2,
            line,
            offset: line * 100,
            len: 99,
        };
        let every_arg = Words::new(
            "{} {} {} {} {} {} {} {} {} {}",
            vec![
                Arg::Text("t\u{1b}".into()),
                Arg::Method("tools/call"),
                Arg::quoted("q"),
                Arg::Side(Side::Server),
                Arg::Key(Key::BigInt("99999999999999999999".into())),
                Arg::Version(Version::V2026_07_28),
                Arg::Int(-5),
                Arg::Number(0.25),
                Arg::Template("nested {}"),
                Arg::Key(Key::Str("id".into())),
                Arg::Joined(Box::new(Joined::for_test(vec![
                    words!("a {}", 1),
                    words!("b"),
                ]))),
            ],
        );
        let mut full = Diagnostic::new(
            meta,
            Some("s1".into()),
            Some(Version::V2025_06_18),
            at(7),
            every_arg,
        )
        .with_severity(Severity::Warning)
        .with_request_id(&RequestId(Key::Int(0)))
        .with_progress_token(&ProgressToken(Key::Str("0".into())))
        .with_batch_index(Some(3))
        .with_pointer("/params/x")
        .with_related(at(2), "the request")
        .with_related(at(5), words!("first answered {}", 5))
        .with_label("label")
        .with_note(words!("note {}", "x"))
        .reported_by_client();
        full.from = Some(Side::Client);
        full.may_have_crossed = true;
        full.spec_version = None;
        let bare = Diagnostic::new(meta, None, None, at(1), words!("bare"));
        let mut found = vec![full.clone(), bare.clone()];
        let mut packed = crate::packed::PackedFindings::default();
        packed.pack_from(&mut found);
        assert_eq!((found.len(), packed.len()), (0, 2));
        packed.unpack_into(&mut found);
        let shown: Vec<String> = found.iter().map(|d| format!("{d:?}")).collect();
        assert_eq!(shown, [format!("{full:?}"), format!("{bare:?}")]);
    }

    #[test]
    fn the_text_names_the_pointer_and_escapes_only_trace_text() {
        let meta = crate::rules::find("invalid-jsonrpc").expect("a rule").meta;
        let location = Location {
            source: 0,
            line: 3,
            offset: 0,
            len: 0,
        };
        let finding = Diagnostic::new(meta, None, None, location, words!("bad {}", "x\u{1b}"))
            .with_pointer("/params/\u{1b}");
        let shown = finding.text(&|t| t.replace('\u{1b}', "?").into());
        assert_eq!(shown, "bad x? (at /params/?)");
    }

    /// Every finding of a run is held until the report (a large trace has
    /// hundreds of thousands), so a field added inline costs that many times
    /// over: what few findings have belongs in `Details`.
    #[test]
    fn a_held_finding_stays_small() {
        use std::mem::size_of;
        assert!(
            size_of::<Diagnostic>() <= 200,
            "{}",
            size_of::<Diagnostic>()
        );
        assert!(size_of::<Words>() <= 32, "{}", size_of::<Words>());
        assert!(size_of::<Arg>() <= 24, "{}", size_of::<Arg>());
        assert!(size_of::<Related>() <= 56, "{}", size_of::<Related>());
    }
}
