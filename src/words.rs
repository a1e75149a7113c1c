//! A finding's words as data: a fixed template with `{}` holes and the typed
//! values that fill them. Rules build them; reports render them, and only
//! the values that came from the trace (`Arg::Text`, `Arg::Quoted`) go
//! through the report's escaping, once.
//!
//! Every finding holds several words until the report, so they are kept
//! small: the values of nested words are spliced into one list (their
//! template first, as [`Arg::Template`]), held in one exact allocation.

use std::borrow::Cow;
use std::fmt;

use crate::event::{Key, ProgressToken, RequestId};
use crate::packed::{Packer, Unpacker};
use crate::protocol::{Side, Version};

/// Builds [`Words`]: `words!("{} cancels request {}", from, request.id)`.
/// Like `format!`, it borrows its values; each converts with [`ToArg`]
/// (a `&str` or `String` is trace text).
#[macro_export]
macro_rules! words {
    ($template:literal $(,)?) => {
        $crate::words::Words::fixed($template)
    };
    ($template:literal, $($arg:expr),+ $(,)?) => {
        $crate::words::Words::filled($template, &[$(&$arg as &dyn $crate::words::ToArg),+])
    };
}

/// A template and its values. `{}` is a hole; `{{` and `}}` are braces.
#[derive(Debug, Clone, PartialEq)]
pub struct Words {
    template: &'static str,
    /// The values in the order their holes come, nested words spliced in.
    args: Box<[Arg]>,
}

/// One value of a finding's words.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Text taken from the trace (a method name, a header, a URL): untrusted.
    Text(Box<str>),
    /// Trace text that names a method the method table knows, held as the
    /// table's copy rather than allocated; escaped like any trace text.
    Method(&'static str),
    /// Trace text shown in double quotes, as JSON would quote it.
    Quoted(Box<str>),
    Side(Side),
    /// A request id or a progress token (a string from the trace or an integer).
    Key(Key),
    Version(Version),
    Int(i64),
    Number(f64),
    /// The template of words nested in words ("client request 3
    /// (tools/call)"): it fills the hole, and its own values follow.
    Template(&'static str),
    Joined(Box<Joined>),
}

/// Several words with a separator between them, and `last` before the last.
#[derive(Debug, Clone, PartialEq)]
pub struct Joined {
    parts: Vec<Words>,
    separator: &'static str,
    last: &'static str,
}

#[cfg(test)]
impl Joined {
    pub fn for_test(parts: Vec<Words>) -> Joined {
        Joined {
            parts,
            separator: ", ",
            last: " or ",
        }
    }
}

impl Words {
    /// `template` filled with `args` (see [`ToArg::push_to`]).
    pub fn new(template: &'static str, args: Vec<Arg>) -> Words {
        debug_assert_eq!(
            holes_with_nested(template, &args),
            args.len(),
            "the holes of {template:?} and its values differ in number"
        );
        Words {
            template,
            args: args.into_boxed_slice(),
        }
    }

    /// `template` filled with `values`, held in an allocation of the exact
    /// size (no growing, no spare room).
    pub fn filled(template: &'static str, values: &[&dyn ToArg]) -> Words {
        let mut args = Vec::with_capacity(values.iter().map(|value| value.arg_count()).sum());
        for value in values {
            value.push_to(&mut args);
        }
        Words::new(template, args)
    }

    /// Words with no values.
    pub fn fixed(template: &'static str) -> Words {
        Words {
            template,
            args: Box::default(),
        }
    }

    /// `parts` one after the other, `separator` between them.
    pub fn joined(parts: Vec<Words>, separator: &'static str) -> Words {
        Words::join(parts, separator, separator)
    }

    /// Parts as a reader lists them: `a`, `a and b`, `a, b and c`.
    pub fn listed(parts: Vec<Words>) -> Words {
        Words::join(parts, ", ", " and ")
    }

    fn join(parts: Vec<Words>, separator: &'static str, last: &'static str) -> Words {
        let joined = Joined {
            parts,
            separator,
            last,
        };
        Words::new("{}", vec![Arg::Joined(Box::new(joined))])
    }

    pub fn is_empty(&self) -> bool {
        self.template.is_empty()
    }

    pub fn template(&self) -> &'static str {
        self.template
    }

    pub fn args(&self) -> &[Arg] {
        &self.args
    }

    /// The words with every piece of trace text passed through `escape`.
    pub fn render(&self, escape: &dyn Fn(&str) -> Cow<str>) -> String {
        let mut out = String::with_capacity(self.template.len() + 16 * self.args.len());
        self.write(&mut out, escape)
            .expect("writing to a String cannot fail");
        out
    }

    fn write(&self, out: &mut impl fmt::Write, escape: &dyn Fn(&str) -> Cow<str>) -> fmt::Result {
        write_template(self.template, &mut self.args.iter(), out, escape)
    }

    pub(crate) fn pack(&self, packer: &mut Packer) {
        packer.static_text(self.template);
        packer.uint(self.args.len() as u64);
        self.args.iter().for_each(|arg| arg.pack(packer));
    }

    pub(crate) fn unpack(unpacker: &mut Unpacker) -> Words {
        let template = unpacker.static_text();
        let count = unpacker.uint() as usize;
        let args = (0..count).map(|_| Arg::unpack(unpacker)).collect();
        Words { template, args }
    }
}

impl Arg {
    fn pack(&self, packer: &mut Packer) {
        match self {
            Arg::Text(text) => {
                packer.byte(0);
                packer.text(text);
            }
            Arg::Method(method) => {
                packer.byte(1);
                packer.static_text(method);
            }
            Arg::Quoted(text) => {
                packer.byte(2);
                packer.text(text);
            }
            Arg::Side(side) => {
                packer.byte(3);
                packer.side(*side);
            }
            Arg::Key(key) => {
                packer.byte(4);
                packer.key(key);
            }
            Arg::Version(version) => {
                packer.byte(5);
                packer.version(*version);
            }
            Arg::Int(n) => {
                packer.byte(6);
                packer.int(*n);
            }
            Arg::Number(n) => {
                packer.byte(7);
                packer.float(*n);
            }
            Arg::Template(template) => {
                packer.byte(8);
                packer.static_text(template);
            }
            Arg::Joined(joined) => {
                packer.byte(9);
                packer.static_text(joined.separator);
                packer.static_text(joined.last);
                packer.uint(joined.parts.len() as u64);
                joined.parts.iter().for_each(|part| part.pack(packer));
            }
        }
    }

    fn unpack(unpacker: &mut Unpacker) -> Arg {
        match unpacker.byte() {
            0 => Arg::Text(unpacker.text().into()),
            1 => Arg::Method(unpacker.static_text()),
            2 => Arg::Quoted(unpacker.text().into()),
            3 => Arg::Side(unpacker.side()),
            4 => Arg::Key(unpacker.key()),
            5 => Arg::Version(unpacker.version()),
            6 => Arg::Int(unpacker.int()),
            7 => Arg::Number(unpacker.float()),
            8 => Arg::Template(unpacker.static_text()),
            _ => {
                let separator = unpacker.static_text();
                let last = unpacker.static_text();
                let count = unpacker.uint() as usize;
                let parts = (0..count).map(|_| Words::unpack(unpacker)).collect();
                Arg::Joined(Box::new(Joined {
                    parts,
                    separator,
                    last,
                }))
            }
        }
    }
}

/// Writes `template`, filling its holes from `args`: a nested template
/// fills its hole with itself and takes the values that follow it.
fn write_template<'a>(
    template: &str,
    args: &mut std::slice::Iter<'a, Arg>,
    out: &mut impl fmt::Write,
    escape: &dyn Fn(&str) -> Cow<str>,
) -> fmt::Result {
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.write_str(&rest[..at])?;
        let tail = &rest[at..];
        if tail.starts_with("{}") {
            match args.next() {
                Some(Arg::Template(nested)) => write_template(nested, args, out, escape)?,
                Some(arg) => arg.write(out, escape)?,
                None => {}
            }
        } else {
            // `{{` or `}}`: one brace.
            out.write_str(&tail[..1])?;
        }
        rest = &tail[2.min(tail.len())..];
    }
    out.write_str(rest)
}

/// A JSON number as people write it: `3`, `0.5`, `1e-300`.
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:?}")
    }
}

/// The number of `{}` holes in a template.
fn holes(template: &str) -> usize {
    let unescaped = template.replace("{{", "").replace("}}", "");
    unescaped.matches("{}").count()
}

/// The number of holes of `template` and of the templates nested in `args`.
fn holes_with_nested(template: &str, args: &[Arg]) -> usize {
    let nested: usize = args
        .iter()
        .map(|arg| match arg {
            Arg::Template(nested) => holes(nested),
            _ => 0,
        })
        .sum();
    holes(template) + nested
}

impl Arg {
    /// Trace text to show in double quotes.
    pub fn quoted(text: &str) -> Arg {
        Arg::Quoted(text.into())
    }

    fn write(&self, out: &mut impl fmt::Write, escape: &dyn Fn(&str) -> Cow<str>) -> fmt::Result {
        match self {
            Arg::Text(text) => out.write_str(&escape(text)),
            Arg::Method(name) => out.write_str(&escape(name)),
            Arg::Quoted(text) => {
                let mut quoted = String::with_capacity(text.len() + 2);
                quoted.push('"');
                for c in text.chars() {
                    if matches!(c, '"' | '\\') {
                        quoted.push('\\');
                    }
                    quoted.push(c);
                }
                quoted.push('"');
                out.write_str(&escape(&quoted))
            }
            Arg::Side(side) => write!(out, "{side}"),
            // Ids and tokens may be strings from the trace.
            Arg::Key(key) => out.write_str(&escape(&key.to_string())),
            Arg::Version(version) => out.write_str(&escape(&version.to_string())),
            Arg::Int(n) => write!(out, "{n}"),
            Arg::Number(n) => out.write_str(&number(*n)),
            // Written by the words it is nested in, with the values after it.
            Arg::Template(template) => out.write_str(template),
            Arg::Joined(joined) => joined.write(out, escape),
        }
    }
}

impl Joined {
    fn write(&self, out: &mut impl fmt::Write, escape: &dyn Fn(&str) -> Cow<str>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            match i {
                0 => {}
                _ if i + 1 == self.parts.len() => out.write_str(self.last)?,
                _ => out.write_str(self.separator)?,
            }
            part.write(out, escape)?;
        }
        Ok(())
    }
}

/// The words as written, trace text unescaped: for tests and for formats
/// that escape the whole text themselves.
impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &|text| Cow::Borrowed(text))
    }
}

impl From<&'static str> for Words {
    fn from(template: &'static str) -> Words {
        debug_assert_eq!(holes(template), 0, "{template:?} has holes but no values");
        Words::fixed(template)
    }
}

/// A value that can fill a hole of [`Words`].
pub trait ToArg {
    /// Adds the value to the values of words: one [`Arg`], or for nested
    /// words their template and values.
    fn push_to(&self, args: &mut Vec<Arg>);

    /// How many values [`ToArg::push_to`] adds.
    fn arg_count(&self) -> usize {
        1
    }
}

impl<T: ToArg + ?Sized> ToArg for &T {
    fn push_to(&self, args: &mut Vec<Arg>) {
        (**self).push_to(args);
    }

    fn arg_count(&self) -> usize {
        (**self).arg_count()
    }
}

/// Values that fill a hole with one [`Arg`], made by `$make` from `self`.
macro_rules! one_arg {
    ($make:expr => $($t:ty),*) => {$(
        impl ToArg for $t {
            fn push_to(&self, args: &mut Vec<Arg>) {
                args.push($make(self));
            }
        }
    )*};
}

/// Text from the trace: most often a method name, which needs no allocation.
fn text(value: &(impl AsRef<str> + ?Sized)) -> Arg {
    let text = value.as_ref();
    match crate::protocol::methods::static_name(text) {
        Some(name) => Arg::Method(name),
        None => Arg::Text(text.into()),
    }
}

one_arg!(text => str, String, Box<str>, Cow<'_, str>, compact_str::CompactString);

fn int<T: Copy>(value: &T) -> Arg
where
    i64: TryFrom<T>,
{
    Arg::Int(i64::try_from(*value).unwrap_or(i64::MAX))
}

one_arg!(int => i64, i32, u8, u16, u32, u64, usize);
one_arg!(|n: &f64| Arg::Number(*n) => f64);
one_arg!(Arg::clone => Arg);
one_arg!(|side: &Side| Arg::Side(*side) => Side);
one_arg!(|id: &RequestId| Arg::Key(id.0.clone()) => RequestId);
one_arg!(|token: &ProgressToken| Arg::Key(token.0.clone()) => ProgressToken);
one_arg!(|version: &Version| Arg::Version(*version) => Version);

/// Nested words: their template fills the hole, and their values follow.
impl ToArg for Words {
    fn push_to(&self, args: &mut Vec<Arg>) {
        args.push(Arg::Template(self.template));
        args.extend(self.args.iter().cloned());
    }

    fn arg_count(&self) -> usize {
        1 + self.args.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_holes_in_order_and_braces() {
        let words = words!("{} sent {} {{x}}", Side::Client, 3u32);
        assert_eq!(words.to_string(), "client sent 3 {x}");
    }

    #[test]
    fn only_trace_text_is_escaped() {
        let id = RequestId(Key::Str("a\u{1b}".into()));
        let words = words!(
            "{} request {} ({}) for {}",
            Side::Server,
            &id,
            "x\u{7}",
            Arg::quoted("q\"\u{1b}")
        );
        let shown = words.render(&|t| Cow::Owned(t.replace(['\u{1b}', '\u{7}'], "?")));
        assert_eq!(shown, r#"server request "a?" (x?) for "q\"?""#);
    }

    #[test]
    fn nests() {
        let inner = words!("{} request {}", Side::Client, 1i64);
        assert_eq!(
            words!("{} was sent here", inner).to_string(),
            "client request 1 was sent here"
        );
    }

    #[test]
    fn nested_words_are_spliced_into_one_list_of_values() {
        let inner = words!("{{{}}} request {}", Side::Client, "tools/call");
        let outer = words!("{} of {}, {}", inner, Side::Server, words!("{}", inner));
        assert_eq!(outer.args().len(), 8);
        assert_eq!(
            outer.to_string(),
            "{client} request tools/call of server, {client} request tools/call"
        );
    }

    #[test]
    fn a_known_method_is_not_copied_but_still_escaped() {
        let words = words!("{} and {}", "tools/call", "tools/cal\u{1b}");
        assert!(matches!(words.args()[0], Arg::Method("tools/call")));
        let shown = words.render(&|t| Cow::Owned(t.replace('\u{1b}', "?").to_uppercase()));
        assert_eq!(shown, "TOOLS/CALL and TOOLS/CAL?");
    }
}
