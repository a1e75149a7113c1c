//! RFC 3339 timestamps of the canonical envelope (`"ts"`), read byte by
//! byte: this runs for every line of a trace, and a parser combinator
//! chain cost about 3% of the instructions of a whole lint.

/// What is left of a timestamp to read.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    /// Exactly `n` ASCII digits, as a number.
    fn digits(&mut self, n: usize) -> Option<u32> {
        let field = self.0.get(..n)?;
        if !field.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.0 = &self.0[n..];
        Some(
            field
                .iter()
                .fold(0, |value, d| value * 10 + u32::from(d - b'0')),
        )
    }

    /// One byte of `set`, consumed.
    fn one_of(&mut self, set: &[u8]) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        set.contains(&first).then(|| {
            self.0 = rest;
            first
        })
    }

    /// `separator`, then exactly `n` digits.
    fn field(&mut self, separator: &[u8], n: usize) -> Option<u32> {
        self.one_of(separator)?;
        self.digits(n)
    }

    /// The (possibly empty) run of ASCII digits that comes next.
    fn digit_run(&mut self) -> &'a [u8] {
        let len = self.0.iter().take_while(|d| d.is_ascii_digit()).count();
        let (run, rest) = self.0.split_at(len);
        self.0 = rest;
        run
    }

    /// The zone: `Z`, or an offset `+hh:mm` / `-hh:mm`, in minutes.
    fn zone(&mut self) -> Option<i64> {
        if self.one_of(b"Zz").is_some() {
            return Some(0);
        }
        let sign = self.one_of(b"+-")?;
        let total = i64::from(self.digits(2)?) * 60 + i64::from(self.field(b":", 2)?);
        Some(if sign == b'-' { -total } else { total })
    }
}

/// Milliseconds since the Unix epoch of an RFC 3339 date-time such as
/// `2026-11-30T07:00:00.123Z` or `2026-11-30T08:00:00+01:00`.
pub fn parse_rfc3339_ms(text: &str) -> Option<f64> {
    let text = text.as_bytes();
    common_layout(text).or_else(|| any_layout(text))?.ms()
}

/// The fields of a date-time as written, not yet checked against the calendar.
struct Fields<'a> {
    year: u32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    /// The digits after the decimal point, if any.
    fraction: &'a [u8],
    offset_minutes: i64,
}

/// The layout nearly every recorder writes, `2026-11-30T07:00:00.123Z`.
const COMMON_LAYOUT: &[u8; 24] = b"0000-00-00T00:00:00.000Z";

/// 0xff in each byte of the `k`th eight of [`COMMON_LAYOUT`] that is
/// `wanted` (`0`: a digit; `-`: a separator written one way only).
const fn layout_mask(k: usize, wanted: u8) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < 8 {
        let byte = COMMON_LAYOUT[8 * k + i];
        let separator = !matches!(byte, b'0' | b'T' | b'Z');
        if (wanted == b'0' && byte == b'0') || (wanted == b'-' && separator) {
            mask |= 0xff << (8 * i);
        }
        i += 1;
    }
    mask
}

/// [`COMMON_LAYOUT`] read at fixed places, eight bytes at a time: this runs
/// for every line of a trace, and reading field by field cost three times
/// the instructions.
fn common_layout(text: &[u8]) -> Option<Fields<'_>> {
    const DIGITS: [u64; 3] = [
        layout_mask(0, b'0'),
        layout_mask(1, b'0'),
        layout_mask(2, b'0'),
    ];
    const SEPARATORS: [u64; 3] = [
        layout_mask(0, b'-'),
        layout_mask(1, b'-'),
        layout_mask(2, b'-'),
    ];
    const EACH: u64 = u64::from_ne_bytes([1; 8]);
    let text: &[u8; 24] = text.try_into().ok()?;
    let flexible = matches!(text[10], b'T' | b't' | b' ') && matches!(text[23], b'Z' | b'z');
    let mut values = [0u8; 24];
    let mut wrong = u64::from(!flexible);
    for k in 0..3 {
        let eight = |bytes: &[u8; 24]| {
            u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().expect("eight bytes"))
        };
        let (got, layout) = (eight(text), eight(COMMON_LAYOUT));
        // A digit byte less '0' is below 10: adding 0x76 leaves its top bit clear.
        let value = got ^ (EACH * u64::from(b'0'));
        let not_digit = (((value & (EACH * 0x7f)) + EACH * 0x76) | value) & (EACH * 0x80);
        wrong |= (not_digit & DIGITS[k]) | ((got ^ layout) & SEPARATORS[k]);
        values[8 * k..8 * k + 8].copy_from_slice(&value.to_le_bytes());
    }
    if wrong != 0 {
        return None;
    }
    let two = |at: usize| u32::from(values[at]) * 10 + u32::from(values[at + 1]);
    Some(Fields {
        year: two(0) * 100 + two(2),
        month: two(5),
        day: two(8),
        hour: two(11),
        minute: two(14),
        second: two(17),
        fraction: &text[20..23],
        offset_minutes: 0,
    })
}

/// Any RFC 3339 date-time, field by field.
fn any_layout(text: &[u8]) -> Option<Fields<'_>> {
    let mut at = Cursor(text);
    let year = at.digits(4)?;
    let (month, day) = (at.field(b"-", 2)?, at.field(b"-", 2)?);
    let (hour, minute, second) = (at.field(b"Tt ", 2)?, at.field(b":", 2)?, at.field(b":", 2)?);
    let fraction = match at.one_of(b".") {
        Some(_) => Some(at.digit_run()).filter(|run| !run.is_empty())?,
        None => &[][..],
    };
    let offset_minutes = at.zone()?;
    at.0.is_empty().then_some(Fields {
        year,
        month,
        day,
        hour,
        minute,
        second,
        fraction,
        offset_minutes,
    })
}

impl Fields<'_> {
    /// Milliseconds since the Unix epoch; `None` for a date or time that
    /// does not exist.
    fn ms(&self) -> Option<f64> {
        let (year, month, day) = (self.year, self.month, self.day);
        let exists = (1..=12).contains(&month) && day != 0 && day <= days_in_month(year, month);
        // A leap second (60) reads as the first second of the next minute.
        if !exists || self.hour > 23 || self.minute > 59 || self.second > 60 {
            return None;
        }
        let days = days_from_civil(year as i64, month, day);
        let seconds = days * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
            - self.offset_minutes * 60;
        Some(seconds as f64 * 1000.0 + fraction_ms(self.fraction))
    }
}

/// Milliseconds of a second's decimal fraction (its digits after the dot),
/// to the nanosecond: exact for whole milliseconds, and no allocation (this
/// runs for every line of a trace).
fn fraction_ms(digits: &[u8]) -> f64 {
    let nanos = digits
        .iter()
        .copied()
        .chain(std::iter::repeat(b'0'))
        .take(9)
        .fold(0u64, |nanos, digit| nanos * 10 + u64::from(digit - b'0'));
    nanos as f64 / 1e6
}

/// The RFC 3339 date-time (UTC, milliseconds) of `ms` milliseconds since the
/// Unix epoch: what the recorder writes, and how `explain` shows times.
pub fn format_rfc3339_ms(ms: f64) -> String {
    let total = ms.round() as i64;
    let (days, in_day) = (total.div_euclid(86_400_000), total.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    let (hour, minute) = (in_day / 3_600_000, in_day / 60_000 % 60);
    let (second, milli) = (in_day / 1000 % 60, in_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{milli:03}Z")
}

/// The date of a day since 1970-01-01 (Howard Hinnant's civil-from-days).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's civil-from-days, inverted).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_what_it_parses() {
        for text in [
            "1970-01-01T00:00:00.000Z",
            "2024-02-29T23:59:59.999Z",
            "2026-11-30T07:00:00.123Z",
        ] {
            assert_eq!(format_rfc3339_ms(parse_rfc3339_ms(text).unwrap()), text);
        }
    }

    #[test]
    fn parses_utc_and_offsets() {
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:01.5Z"), Some(1500.0));
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:00.0000015Z"),
            Some(0.0015)
        );
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:00.1234567890123Z"),
            Some(123.456789)
        );
        assert_eq!(parse_rfc3339_ms("1970-01-01T01:00:00+01:00"), Some(0.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01t00:30:00-00:30z"), None);
        assert_eq!(parse_rfc3339_ms("1969-12-31 23:30:00-00:30"), Some(0.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01t00:00:00.25z"), Some(250.0));
        assert_eq!(
            parse_rfc3339_ms("2026-11-30T07:00:00.123Z"),
            Some(1_796_022_000_123.0)
        );
    }

    #[test]
    fn the_common_layout_reads_as_any_layout_does() {
        for text in [
            "2026-11-30T07:00:00.123Z",
            "2024-02-29t23:59:59.999z",
            "1999-12-31 00:00:60.000Z",
            "2026-02-30T00:00:00.000Z",
            "2026-11-30T24:00:00.000Z",
        ] {
            let (common, any) = (common_layout(text.as_bytes()), any_layout(text.as_bytes()));
            assert_eq!(common.unwrap().ms(), any.unwrap().ms(), "{text}");
        }
        for other in [
            "2026-11-30T07:00:00.1234Z",
            "2026-11-30T07:00:00+01:00",
            "2026-11-30T07:00:00.12xZ",
            "2026-11-30T07:00:00,123Z",
        ] {
            assert!(common_layout(other.as_bytes()).is_none(), "{other}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_in_the_common_layout_reads_as_any_layout_does(
            text in "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}[Zz]"
        ) {
            let any = any_layout(text.as_bytes()).and_then(|f| f.ms());
            proptest::prop_assert_eq!(common_layout(text.as_bytes()).and_then(|f| f.ms()), any);
        }

        #[test]
        fn the_common_layout_takes_no_byte_any_layout_refuses(
            text in "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}[Zz]",
            at in 0..24usize,
            byte in proptest::prelude::any::<u8>(),
        ) {
            let mut text = text.into_bytes();
            text[at] = byte;
            if let Some(common) = common_layout(&text) {
                let any = any_layout(&text);
                proptest::prop_assert!(any.is_some());
                proptest::prop_assert_eq!(common.ms(), any.and_then(|f| f.ms()));
            }
        }
    }

    #[test]
    fn rejects_what_is_not_rfc3339() {
        for bad in [
            "",
            "2026-11-30",
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-11-30T07:00:00",
            "2026-11-30T07:00:00.Z",
            "2026-11-30T07:00:00ZZ",
            "2026-11-30T07:00:00+01",
            "2026-11-30T07:00:00+1:00",
            "2026-11-30T24:00:00Z",
            "2026-11-30T07:60:00Z",
            "2026-11-30T07:00:61Z",
            "2026-11-30X07:00:00Z",
            "2026-1-30T07:00:00Z",
            "2026-11-30T07:00:00.12xZ",
            "2026-13-30T07:00:00.123Z",
            "yesterday",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
    }
}
