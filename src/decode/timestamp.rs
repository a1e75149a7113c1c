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
    let mut at = Cursor(text.as_bytes());
    let year = at.digits(4)?;
    let (month, day) = (at.field(b"-", 2)?, at.field(b"-", 2)?);
    let (hour, minute, second) = (at.field(b"Tt ", 2)?, at.field(b":", 2)?, at.field(b":", 2)?);
    let fraction = match at.one_of(b".") {
        Some(_) => Some(at.digit_run()).filter(|run| !run.is_empty())?,
        None => &[][..],
    };
    let offset_minutes = at.zone()?;
    if !at.0.is_empty()
        || !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = days_from_civil(year as i64, month, day);
    let seconds =
        days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second)
            - offset_minutes * 60;
    Some(seconds as f64 * 1000.0 + fraction_ms(fraction))
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
            "yesterday",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
    }
}
