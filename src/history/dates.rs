//! Dates for `--since` and `--until`: absolute (`2024-03-01`, `2024-03-01 14:00`) and
//! relative (`yesterday`, `last week`, `3 months ago`) forms, parsed by the `interim`
//! crate against a given "now" in UTC.

use anyhow::{Result, bail};
use jiff::Timestamp;
use jiff::tz::TimeZone;

/// The instant `text` names, relative to `now`. A bare date means its midnight (UTC).
pub fn parse(text: &str, now: Timestamp) -> Result<Timestamp> {
    let now = now.to_zoned(TimeZone::UTC);
    let t = text.trim();
    if let Ok(z) = interim::parse_date_string(t, now.clone(), interim::Dialect::Uk) {
        return Ok(z.timestamp());
    }
    // "last week", "last month", "last year": one such unit before now.
    let lowered = t.to_ascii_lowercase();
    if let Some(unit) = lowered.strip_prefix("last ")
        && let Ok(interval) = interim::parse_duration(&format!("1 {unit} ago"))
        && let Some(z) = apply(&now, interval)
    {
        return Ok(z.timestamp());
    }
    if let Ok(interval) = interim::parse_duration(t)
        && let Some(z) = apply(&now, interval)
    {
        return Ok(z.timestamp());
    }
    bail!(
        "cannot read {text:?} as a date (try 2024-03-01, \"2024-03-01 14:30\", yesterday, \"last week\" or \"3 months ago\")"
    )
}

/// The month names, lowercase, January first.
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A calendar period named in words, as the half-open window `[start, end)` in UTC:
/// `March 2024`, `2010`, or a month alone (`March`: the latest March that has begun by
/// `now`). `None` for anything else.
pub fn period(text: &str, now: Timestamp) -> Option<(Timestamp, Timestamp)> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let month = |w: &str| {
        MONTHS
            .iter()
            .position(|m| *m == w || (w.len() >= 3 && m.starts_with(w)))
    };
    let year = |w: &str| {
        (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
            .then(|| w.parse::<i16>().ok())
            .flatten()
            .filter(|y| (1970..=2200).contains(y))
    };
    let start_of = |y: i16, m: i8| jiff::civil::date(y, m, 1).to_zoned(TimeZone::UTC).ok();
    let (start, end) = match words.as_slice() {
        [m, y] => {
            let (m, y) = (month(m)?, year(y)?);
            let m = m as i8 + 1;
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (start_of(y, m)?, start_of(ny, nm)?)
        }
        [w] if year(w).is_some() => {
            let y = year(w)?;
            (start_of(y, 1)?, start_of(y + 1, 1)?)
        }
        [w] => {
            let m = month(w)? as i8 + 1;
            let today = now.to_zoned(TimeZone::UTC);
            let y = if today.month() >= m {
                today.year()
            } else {
                today.year() - 1
            };
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (start_of(y, m)?, start_of(ny, nm)?)
        }
        _ => return None,
    };
    Some((start.timestamp(), end.timestamp()))
}

fn apply(now: &jiff::Zoned, interval: interim::Interval) -> Option<jiff::Zoned> {
    let span = match interval {
        interim::Interval::Seconds(s) => jiff::Span::new().try_seconds(s).ok()?,
        interim::Interval::Days(d) => jiff::Span::new().try_days(d).ok()?,
        interim::Interval::Months(m) => jiff::Span::new().try_months(m).ok()?,
    };
    now.checked_add(span).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().expect("timestamp")
    }

    #[test]
    fn absolute_and_relative_forms() {
        let now = at("2024-06-15T12:00:00Z");
        assert_eq!(
            parse("2024-03-01", now).expect("date"),
            at("2024-03-01T00:00:00Z")
        );
        assert_eq!(
            parse("2024-03-01 14:30", now).expect("date"),
            at("2024-03-01T14:30:00Z")
        );
        for (text, want) in [
            ("3 months ago", "2024-03-15T00:00:00Z"),
            ("last week", "2024-06-08T12:00:00Z"),
            ("2 days ago", "2024-06-13T12:00:00Z"),
            ("yesterday", "2024-06-14T12:00:00Z"),
        ] {
            let got = parse(text, now).map(|t| t.to_string());
            assert_eq!(got.ok().as_deref(), Some(want), "{text}");
        }
        assert!(parse("not a date", now).is_err());
    }

    #[test]
    fn periods_in_words_are_half_open_windows() {
        let now = at("2024-06-15T12:00:00Z");
        let p = |t: &str| period(t, now).map(|(a, b)| (a.to_string(), b.to_string()));
        let w = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(
            p("March 2024"),
            w("2024-03-01T00:00:00Z", "2024-04-01T00:00:00Z")
        );
        assert_eq!(
            p("december 2018"),
            w("2018-12-01T00:00:00Z", "2019-01-01T00:00:00Z")
        );
        assert_eq!(p("2010"), w("2010-01-01T00:00:00Z", "2011-01-01T00:00:00Z"));
        // A month alone: the latest one that has begun.
        assert_eq!(p("June"), w("2024-06-01T00:00:00Z", "2024-07-01T00:00:00Z"));
        assert_eq!(p("July"), w("2023-07-01T00:00:00Z", "2023-08-01T00:00:00Z"));
        assert_eq!(
            p("Sept 2020"),
            w("2020-09-01T00:00:00Z", "2020-10-01T00:00:00Z")
        );
        assert_eq!(p("1492"), None);
        assert_eq!(p("march madness"), None);
        assert_eq!(p("last week"), None);
    }
}
